"""A blocking wrapper of the asyncio client for synchronous agent loops: the event loop runs in
a background thread; every call blocks until the server has answered (or ``timeout``).

A step that times out was sent (or is about to be) and is scored by the server: its ``timeout``
error names the session and the seq, and calling ``step`` again with the same payload returns that
step's answer without scoring it twice (see :class:`~steplens_client.session.Session`)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import uuid
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple, TypeVar, Union

from .errors import SteplensError
from .session import Frame, Session, _Pending
from .oversized import MAX_SERVER_FRAME_BYTES
from .stream import Reconnect, StreamClient, connect

T = TypeVar("T")

#: Seconds a blocking ``step`` that timed out waits for the loop to settle what became of the step.
_GIVE_UP_TIMEOUT = 10.0


class SyncClient:
    """A blocking :class:`StreamClient`. Listener callbacks run on the client's own thread."""

    def __init__(self, url: str, *, token: Optional[str] = None, reconnect: Union[bool, Reconnect] = True,
                 timeout: float = 120.0, max_frame_bytes: int = 1024 * 1024,
                 max_server_frame_bytes: int = MAX_SERVER_FRAME_BYTES) -> None:
        # The calls' deadline is this client's (changed at will: ``client.timeout = 5``), so the async client gets none;
        # when it passes, the call is given up as the async client's own ``timeout`` gives it up (deadline.py): a step
        # stays in flight for a retry, a start gives its id up, an end in flight is not sent again.
        self.timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="steplens-client", daemon=True)
        self._thread.start()
        try:
            self.client: StreamClient = self.call(connect(url, token=token, reconnect=reconnect, max_frame_bytes=max_frame_bytes,
                                                          timeout=None, max_server_frame_bytes=max_server_frame_bytes))
        except BaseException:
            self._stop()
            raise

    def call(self, coro: Awaitable[T], timeout: Optional[float] = None) -> T:
        """Runs a coroutine on the client's loop and waits for it."""
        future = self._run(coro)
        try:
            return future.result(self.timeout if timeout is None else timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise SteplensError("timeout", f"no answer from the server within {self.timeout if timeout is None else timeout} s") from None

    def _run(self, coro: Awaitable[T]) -> "concurrent.futures.Future[T]":
        """Schedules a coroutine on the client's loop."""
        if self._loop.is_closed():
            if asyncio.iscoroutine(coro):
                coro.close()  # never run: no "never awaited" warning
            raise SteplensError("closed", "the client is closed")
        return asyncio.run_coroutine_threadsafe(coro, self._loop)  # type: ignore[arg-type]

    def start(self, task: str, **kwargs: Any) -> "SyncSession":
        """Opens a session (see :meth:`StreamClient.start`). The id is chosen here when none is given, so that a
        ``timeout`` can name the session it gave up (its id is given up too: a late ``started`` is ignored)."""
        session = kwargs.get("session")
        if session is None:
            session = kwargs["session"] = f"py-{uuid.uuid4()}"
        return SyncSession(self, self._named(self.client.start(task, **kwargs), session, "started"))

    def resume(self, session_id: str) -> "SyncSession":
        """Attaches a session the server holds (see :meth:`StreamClient.resume`)."""
        return SyncSession(self, self._named(self.client.resume(session_id), session_id, "resumed"))

    def _named(self, coro: Awaitable[T], session: str, answer: str) -> T:
        """``call``, with a ``timeout`` that names the session and says the client gave it up."""
        try:
            return self.call(coro)
        except SteplensError as e:
            if e.code != "timeout" or e.session is not None:
                raise
            raise SteplensError("timeout", f"no {answer} within {self.timeout} s: given up here (a late {answer} is ignored)",
                                session=session) from None

    def ping(self) -> None:
        self.call(self.client.ping())

    @property
    def reconnects(self) -> int:
        return self.client.reconnects

    def drop_socket(self) -> None:
        """Cuts the TCP connection without a close handshake, as a network failure would (tests, chaos drills)."""
        self._loop.call_soon_threadsafe(lambda: self.client.socket.transport.abort())

    def close(self) -> None:
        """Closes the connection and stops the client's thread."""
        if self._thread.is_alive():
            try:
                self.call(self.client.close(), timeout=10)
            finally:
                self._stop()

    def _stop(self) -> None:
        # Tasks still on the loop (a connect that timed out and was cancelled, but has not run its cancellation yet)
        # are cancelled and awaited first: a loop closed under them prints "Task was destroyed but it is pending!".
        async def settle() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        if self._thread.is_alive():
            try:
                asyncio.run_coroutine_threadsafe(settle(), self._loop).result(_GIVE_UP_TIMEOUT)
            except Exception:
                pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def __enter__(self) -> "SyncClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class SyncSession:
    """A blocking :class:`Session`; ``scores``, ``signals``, ``final``, ``reference``... are the session's."""

    def __init__(self, owner: SyncClient, session: Session) -> None:
        self._owner = owner
        self.session = session

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def step(self, payload: Any) -> List[Frame]:
        """Sends one step payload; returns its score frames. On ``timeout`` (which names the session and
        seq) the step is in flight and will be scored: call ``step`` again with the same payload to get its
        answer (it is not sent under a new seq, so not scored twice); a different payload gets the next seq."""
        return self.send(payload)[1]

    def send(self, payload: Any) -> Tuple[int, List[Frame]]:
        """As :meth:`step`, with the step's seq: ``(seq, frames)`` (a retry answers the seq of the step it retries)."""
        owner, session = self._owner, self.session
        # Touched on the loop thread only: the step taken (``entry``), or that the caller gave up before it was.
        state: Dict[str, Any] = {}

        async def attempt() -> Tuple[int, List[Frame]]:
            if state.get("gave_up"):
                return -1, []  # nobody waits: not sent
            entry = state["entry"] = session._submit(payload)
            return entry.seq, await asyncio.shield(entry.task)

        async def give_up() -> Tuple[Optional[_Pending], bool]:
            # On the loop, so no race with ``attempt``: the step not taken yet is never sent; one answered meanwhile is
            # handed over after all; else it is abandoned in flight, for a retry with the same payload to take.
            state["gave_up"] = True
            entry: Optional[_Pending] = state.get("entry")
            answered = entry is not None and entry.task is not None and entry.task.done()
            if entry is not None and not answered:
                session._abandon(entry)
            return entry, answered

        future = owner._run(attempt())
        try:
            return future.result(owner.timeout)
        except concurrent.futures.TimeoutError:
            pass
        try:
            entry, answered = owner.call(give_up(), timeout=max(owner.timeout, _GIVE_UP_TIMEOUT))
        except SteplensError as e:
            raise SteplensError(e.code, f"step: {e.message}", session=session.id) from None
        if entry is None:
            raise SteplensError("timeout", f"step: not taken within {owner.timeout} s, and not sent", session=session.id)
        if answered:  # while the caller was giving up: its answer (or the server's refusal) after all
            assert entry.task is not None
            return entry.seq, entry.task.result()
        raise SteplensError("timeout", f"no answer within {owner.timeout} s to step {entry.seq}, which was sent and may be scored: "
                            "call step() again with the same payload to get its answer (it is not scored twice)",
                            session=session.id, seq=entry.seq)

    def outcome(self, passed: bool) -> None:
        self._owner.call(self.session.outcome(passed))

    def end(self, patch: Optional[str] = None) -> Dict[str, Any]:
        """Ends the session; returns the ``final`` frame. ``patch``: the run's final diff (see :meth:`Session.end`)."""
        return self._owner.call(self.session.end(patch))

    def on_score(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        return self.session.on_score(callback)

    def on_signal(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        return self.session.on_signal(callback)
