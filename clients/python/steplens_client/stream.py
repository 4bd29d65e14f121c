"""The asyncio WebSocket client: one connection carrying any number of sessions, frame
routing (routing.py), ping barriers (how a ``step`` knows it is answered), and reconnect-and-resume (recovery.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections import deque
from typing import Any, Callable, Deque, Dict, List, Optional, Set, Tuple, Union

from .errors import SteplensError
from .session import Session, _Pending
from .recovery import Reconnect, Recovery
from .routing import Routing
from .deadline import DEFAULT_TIMEOUT, timeout_option, within
from .oversized import MAX_SERVER_FRAME_BYTES, frame_text, server_frame_limit
from .socket import CLOSE_TIMEOUT_S, ConnectionClosed, open_socket, stream_url

log = logging.getLogger("steplens_client")

async def connect(url: str, *, token: Optional[str] = None, reconnect: Union[bool, Reconnect] = True,
                  max_frame_bytes: int = 1024 * 1024, open_timeout: float = 10.0, timeout: Optional[float] = DEFAULT_TIMEOUT,
                  max_server_frame_bytes: int = MAX_SERVER_FRAME_BYTES) -> "StreamClient":
    """Opens a connection to a steplens server (``http://host:port[/prefix]``: ``/v1/stream`` is added to its path; or
    a ``ws(s)://`` stream URL, taken as given).
    With ``reconnect`` (default on) a dropped socket is reopened and every open session resumed.
    ``timeout``: seconds a ``start``, ``step``, ``end``, ``ping`` or ``resume`` waits for its answer, then raises
    ``timeout`` naming its session and seq (default 120 s, as ``SyncClient``; 0 or None: no deadline); the message stays
    in flight (deadline.py). ``max_server_frame_bytes``: a frame from the server over it (default 64 MiB) is not read:
    the connection is closed and not reopened, and every pending call raises ``too_large`` naming this option."""
    deadline = timeout_option(timeout)
    frame_limit = server_frame_limit(max_server_frame_bytes)
    ws_url = stream_url(url)
    ws = await open_socket(ws_url, token, max_size=frame_limit, open_timeout=open_timeout)
    policy = Reconnect() if reconnect is True else (reconnect or None)
    return StreamClient(ws, ws_url, token, policy, max_frame_bytes, open_timeout, deadline, frame_limit)


class StreamClient(Routing, Recovery):
    """A connected client (made by :func:`connect`): open sessions with :meth:`start`."""

    def __init__(self, ws: Any, url: str, token: Optional[str], reconnect: Optional[Reconnect],
                 max_frame_bytes: int, open_timeout: float, timeout: Optional[float] = DEFAULT_TIMEOUT,
                 max_server_frame_bytes: int = MAX_SERVER_FRAME_BYTES) -> None:
        self.url = url
        self.max_frame_bytes = max_frame_bytes
        #: Seconds a call waits for its answer (None: no deadline).
        self.timeout = timeout
        self.max_server_frame_bytes = max_server_frame_bytes
        self.failure: Optional[SteplensError] = None
        #: Number of times the socket was reopened.
        self.reconnects = 0
        self._ws = ws
        self._token = token
        self._reconnect = reconnect
        self._open_timeout = open_timeout
        self._state = "ready"
        self._lock = asyncio.Lock()
        self._sessions: Dict[str, Session] = {}
        self._starting: Dict[str, Tuple[Dict[str, Any], "asyncio.Future[Session]"]] = {}
        # The socket each start was last sent on: a 1009 close is only about a start sent on that socket.
        self._start_sockets: Dict[str, Any] = {}
        self._resuming: Dict[str, "asyncio.Future[Session]"] = {}
        self._pongs: Deque[Tuple[str, Any]] = deque()
        self._deferred_pings: List["asyncio.Future[None]"] = []
        # start/resume messages asked for while recovering, after recovery re-sent the pending ones: sent when it ends.
        self._deferred_controls: List[Dict[str, Any]] = []
        # Sessions whose resume is sent and not yet answered (an error without seq for one is a refused resume),
        # and the waits before a refused resume is asked again.
        self._awaiting_resume: Set[str] = set()
        self._resume_retries: Set["asyncio.Task[None]"] = set()
        self._error_listeners: List[Callable[[Any], None]] = []
        self._reconnect_listeners: List[Callable[[], None]] = []
        self._reader = asyncio.get_running_loop().create_task(self._run())

    @property
    def socket(self) -> Any:
        """The current ``websockets`` connection (replaced on reconnect)."""
        return self._ws

    @property
    def closed(self) -> bool:
        """True once closed, or the connection is lost for good."""
        return self._state == "closed"

    async def __aenter__(self) -> "StreamClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def start(self, task: str, *, session: Optional[str] = None, format: Optional[str] = None,
                    agent: Optional[str] = None, model: Optional[str] = None, policy: Optional[Dict[str, Any]] = None,
                    learn: Optional[bool] = None) -> Session:
        """Opens a session; raises the server's error (``bad_message`` for a bad policy,
        ``duplicate_session``, ``overloaded``, ...), or ``too_large`` naming the session when its frame
        was over the server's limit (also when the server closed the socket over it, 1009: it is not
        sent again, and nothing of it is kept). The id is made here when absent, so every
        session can be resumed. ``agent`` and ``model`` name the harness and the model producing the
        steps (e.g. ``"mini-swe-agent 1.1"``, ``"openai/gpt-5-mini"``): the server picks the session's
        policy group and forecast model by them."""
        if self.failure is not None:
            raise self.failure
        sid = session if session is not None else f"py-{uuid.uuid4()}"
        if sid in self._sessions or sid in self._starting:
            raise SteplensError("duplicate_session", f"session {sid} is already open on this client", session=sid)
        message: Dict[str, Any] = {"type": "start", "session": sid, "task": task}
        for key, value in (("format", format), ("agent", agent), ("model", model), ("policy", policy), ("learn", learn)):
            if value is not None:
                message[key] = value
        try:
            json.dumps(message, allow_nan=False)  # strict JSON (no NaN): else refused by the server with no session named
        except (TypeError, ValueError) as e:
            raise SteplensError("bad_input", f"start: not JSON ({e})", session=sid) from None
        future: "asyncio.Future[Session]" = asyncio.get_running_loop().create_future()
        self._starting[sid] = (message, future)

        async def started() -> Session:
            await self._send_control(message)
            return await future

        late = (f"no started within {self.timeout} s for session {sid}: given up here (the server may still open it; then "
                "a start with this id is refused duplicate_session)")
        try:
            return await within(started(), self.timeout, lambda: SteplensError("timeout", late, session=sid))
        except BaseException:
            # Timed out or cancelled: the id is free again on this client, and a late ``started`` is ignored.
            if self._starting.get(sid, (None, None))[1] is future:
                del self._starting[sid]
                self._start_sockets.pop(sid, None)
            raise

    async def resume(self, session_id: str) -> Session:
        """Attaches a session the server holds (opened by another connection or process, within
        the server's resume window); its frames so far are in ``scores``/``signals``. Raises
        ``unknown_session`` when the server does not know it."""
        if self.failure is not None:
            raise self.failure
        if session_id in self._sessions:
            return self._sessions[session_id]
        future: "asyncio.Future[Session]" = asyncio.get_running_loop().create_future()
        self._resuming[session_id] = future

        async def resumed() -> Session:
            await self._send_control({"type": "resume", "session": session_id, "after": -1})
            return await future

        late = f"no resumed within {self.timeout} s for session {session_id}: given up here (a late resumed is ignored)"
        try:
            # The session itself, not a lookup after the ping: an ended session's final (re-sent after ``resumed``)
            # makes the client forget it before this returns.
            session = await within(resumed(), self.timeout, lambda: SteplensError("timeout", late, session=session_id))
        except BaseException:
            if self._resuming.get(session_id) is future:
                del self._resuming[session_id]
            raise
        await self.ping()
        return session

    async def ping(self) -> None:
        """Round trip: returns once every message sent before has been handled."""
        if self.failure is not None:
            raise self.failure
        future: "asyncio.Future[None]" = asyncio.get_running_loop().create_future()

        async def pong() -> None:
            async with self._lock:
                if self._state == "ready":
                    await self._send_ping_locked(("ping", future))
                else:
                    self._deferred_pings.append(future)
            await future

        # A late pong finds its future cancelled, and is dropped.
        await within(pong(), self.timeout, lambda: SteplensError("timeout", f"no pong within {self.timeout} s"))

    def on_error(self, callback: Callable[[Any], None]) -> Callable[[], None]:
        """Calls ``callback`` with errors no pending call waits for; returns an unsubscribe function."""
        self._error_listeners.append(callback)
        return lambda: self._error_listeners.remove(callback)

    def on_reconnect(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Calls ``callback`` each time the client has reconnected and resumed its sessions."""
        self._reconnect_listeners.append(callback)
        return lambda: self._reconnect_listeners.remove(callback)

    async def close(self) -> None:
        """Closes the socket; pending calls raise ``closed``. Open sessions stay resumable on the
        server for its resume window."""
        if self._state != "closed":
            self._shutdown(SteplensError("closed", "the client was closed"))
        # A peer that stopped answering does not hold close(): the handshake gets CLOSE_TIMEOUT_S, then the link goes
        # (websockets' own close_timeout applies to each of its phases, and a cancelled close still waits them out).
        closing = asyncio.ensure_future(self._ws.close())
        done, _ = await asyncio.wait({closing}, timeout=CLOSE_TIMEOUT_S)
        if not done:
            self._ws.transport.abort()
        try:
            await closing
        except Exception:
            pass
        if not self._reader.done():
            self._reader.cancel()
        try:
            await self._reader
        except (asyncio.CancelledError, Exception):
            pass

    # Sending.

    async def _send_control(self, message: Dict[str, Any]) -> None:
        """Sends a start or resume now, or (while recovering) once the recovery ends; a drop re-sends it anyway."""
        async with self._lock:
            if not await self._send_locked(message) and self._state == "recovering":
                self._deferred_controls.append(message)

    async def _send(self, message: Dict[str, Any], recovering: bool = False) -> bool:
        async with self._lock:
            return await self._send_locked(message, recovering)

    async def _send_locked(self, message: Dict[str, Any], recovering: bool = False) -> bool:
        if not (self._state == "ready" or (recovering and self._state == "recovering")):
            return False
        try:
            await self._ws.send(frame_text(message))
        except ConnectionClosed:
            return False
        if message.get("type") == "start":
            self._start_sockets[message["session"]] = self._ws
        return True

    async def _send_ping(self, waiter: Tuple[str, Any]) -> bool:
        async with self._lock:
            return await self._send_ping_locked(waiter)

    async def _send_ping_locked(self, waiter: Tuple[str, Any]) -> bool:
        self._pongs.append(waiter)
        if await self._send_locked({"type": "ping"}, recovering=True):
            return True
        if waiter in self._pongs:
            self._pongs.remove(waiter)
            if waiter[0] == "ping":
                self._deferred_pings.append(waiter[1])
        return False

    async def _send_step(self, session: Session, entry: _Pending, recovering: bool = False) -> bool:
        async with self._lock:
            if entry.sent or entry not in session._pending or session._held:
                return True
            message = {"type": "step", "session": session.id, "seq": entry.seq, "step": entry.payload}
            # Marked before the send yields: a refusal read meanwhile drops the steps after it, and must know this one went.
            entry.sent = True
            if not await self._send_locked(message, recovering):
                entry.sent = False
                return False
            return await self._send_ping_locked(("step", (session, entry)))

    # Closing.

    def _shutdown(self, error: SteplensError) -> None:
        self._state = "closed"
        for task in list(self._resume_retries):
            task.cancel()
        self.failure = error
        for _, future in self._starting.values():
            if not future.done():
                future.set_exception(error)
        self._starting.clear()
        self._start_sockets.clear()
        for future in self._resuming.values():
            if not future.done():
                future.set_exception(error)
        self._resuming.clear()
        for s in self._sessions.values():
            s._fail(error, lose=False)
        for kind, value in self._pongs:
            if kind == "ping" and not value.done():
                value.set_exception(error)
        self._pongs.clear()
        for future in self._deferred_pings:
            if not future.done():
                future.set_exception(error)
        self._deferred_pings.clear()

    # Listeners.

    def _emit(self, listeners: List[Callable[..., None]], value: Any) -> None:
        for callback in list(listeners):
            try:
                callback(value) if value is not None else callback()
            except Exception as error:
                self._report(error)

    def _report(self, error: Any) -> None:
        if not self._error_listeners:
            log.warning("steplens client: %s", error)
        for callback in list(self._error_listeners):
            try:
                callback(error)
            except Exception:
                log.exception("steplens client: error listener failed")
