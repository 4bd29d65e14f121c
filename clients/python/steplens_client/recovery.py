"""Reconnect-and-resume for :class:`~steplens_client.stream.StreamClient`: reopening a dropped
socket with backoff, resuming every session on it, and asking again for a resume the server
refused while its shared store was unreachable."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Deque, Dict, List, Optional, Set, Tuple

from .errors import SteplensError
from .oversized import MESSAGE_TOO_BIG, refuse_oversized, server_frame_too_big
from .session import Session
from .socket import open_socket

MAX_RECONNECT_DELAY = 30.0


@dataclass
class Reconnect:
    """Reconnect policy: up to ``retries`` attempts per drop, waiting ``delay`` seconds, then twice
    as long each time (at most 30 s). A resume refused ``unavailable`` is asked again on the same terms."""
    retries: int = 5
    delay: float = 0.2


class Recovery:
    """The reconnecting half of the stream client (a mixin: the state lives in ``StreamClient``)."""

    url: str
    max_server_frame_bytes: int
    reconnects: int
    _ws: Any
    _token: Optional[str]
    _reconnect: Optional[Reconnect]
    _open_timeout: float
    _state: str
    _lock: asyncio.Lock
    _sessions: Dict[str, Session]
    _starting: Dict[str, Tuple[Dict[str, Any], "asyncio.Future[Session]"]]
    _resuming: Dict[str, "asyncio.Future[Session]"]
    _pongs: Deque[Tuple[str, Any]]
    _deferred_pings: List["asyncio.Future[None]"]
    _deferred_controls: List[Dict[str, Any]]
    _awaiting_resume: Set[str]
    _resume_retries: Set["asyncio.Task[None]"]
    _reconnect_listeners: List[Any]

    # Provided by StreamClient (_forget_finished by its Routing half, routing.py).
    async def _send(self, message: Dict[str, Any], recovering: bool = False) -> bool: ...
    async def _send_locked(self, message: Dict[str, Any], recovering: bool = False) -> bool: ...
    async def _send_ping_locked(self, waiter: Tuple[str, Any]) -> bool: ...
    async def _send_step(self, session: Session, entry: Any, recovering: bool = False) -> bool: ...
    def _shutdown(self, error: SteplensError) -> None: ...
    def _forget_finished(self) -> None: ...
    def _emit(self, listeners: List[Any], value: Any) -> None: ...

    async def _on_close(self, ws: Any) -> bool:
        """The socket dropped: reopen it and resume every session, or fail everything."""
        code = getattr(ws, "close_code", None)
        reason = getattr(ws, "close_reason", None)
        why = f"connection to {self.url} closed ({code}{f' {reason}' if reason else ''})"
        too_big = server_frame_too_big(ws, self.max_server_frame_bytes, self.url)
        if code == MESSAGE_TOO_BIG:
            refuse_oversized(self, ws, f"{code}{f' {reason}' if reason else ''}")
        for s in self._sessions.values():
            s._on_disconnect()
        self._deferred_pings.extend(v for k, v in self._pongs if k == "ping")
        self._pongs.clear()
        if self._reconnect is None or too_big is not None:
            self._shutdown(too_big or SteplensError("disconnected", why))
            return False
        self._state = "reconnecting"
        last: Optional[BaseException] = None
        for attempt in range(self._reconnect.retries):
            await asyncio.sleep(min(self._reconnect.delay * 2 ** attempt, MAX_RECONNECT_DELAY))
            if self._state == "closed":
                return False
            try:
                new_ws = await open_socket(self.url, self._token, max_size=self.max_server_frame_bytes, open_timeout=self._open_timeout)
            except SteplensError as error:
                last = error
                continue
            if self._state == "closed":
                await new_ws.close()
                return False
            self._ws = new_ws
            self.reconnects += 1
            await self._begin_recovery()
            return True
        self._shutdown(SteplensError("disconnected", f"{why}; {self._reconnect.retries} reconnect attempts failed: {last}"))
        return False

    async def _begin_recovery(self) -> None:
        self._state = "recovering"
        async with self._lock:
            self._deferred_controls.clear()  # every pending start and resume is re-sent below
            self._awaiting_resume.clear()
            for s in self._sessions.values():
                if s.lost is None:
                    s.resume_refused = None
                    self._awaiting_resume.add(s.id)
                    await self._send_locked({"type": "resume", "session": s.id, "after": s._resume_after}, recovering=True)
            for sid, future in list(self._resuming.items()):
                await self._send_locked({"type": "resume", "session": sid, "after": -1}, recovering=True)
            for message, _ in self._starting.values():
                await self._send_locked(message, recovering=True)
            await self._send_ping_locked(("recovery", None))

    async def _finish_recovery(self) -> None:
        for s in list(self._sessions.values()):
            await self._after_resume(s, 0)
        while True:
            unsent = [(s, p) for s in self._sessions.values() if s.lost is None and not s._held for p in s._pending if not p.sent]
            if not unsent:
                async with self._lock:
                    if not any(not p.sent for s in self._sessions.values() if s.lost is None and not s._held for p in s._pending):
                        self._state = "ready"
                        for message in self._deferred_controls:
                            await self._send_locked(message)
                        self._deferred_controls.clear()
                        for future in self._deferred_pings:
                            if not future.done():
                                await self._send_ping_locked(("ping", future))
                        self._deferred_pings.clear()
                        break
                continue
            for s, p in unsent:
                if not await self._send_step(s, p, recovering=True):
                    return
        self._forget_finished()
        self._emit(self._reconnect_listeners, None)

    async def _after_resume(self, s: Session, attempt: int) -> None:
        """A session's resume is answered (its frames and ``resumed`` came before this pong): carry on, or ask again."""
        if s.needs_restart:
            await s._restart()
        elif s.resume_refused is not None:
            self._retry_resume(s, s.resume_refused, attempt)
        elif s.lost is None and s.resumed_last is not None:
            await s._recover()

    def _retry_resume(self, s: Session, refusal: SteplensError, attempt: int) -> None:
        """Asks again for a resume the server refused (``unavailable``) after the reconnect backoff; gives up after
        ``retries``: the session is lost and its held calls raise ``unavailable``."""
        s.resume_refused = None
        retries = self._reconnect.retries if self._reconnect is not None else 0
        if attempt >= retries:
            s._held = False
            why = f"session {s.id} could not be resumed after {retries} attempts: {refusal.message}"
            s._fail(SteplensError("unavailable", why, session=s.id), lose=True)
            return
        s._held = True
        ws, delay = self._ws, min((self._reconnect.delay if self._reconnect else 0) * 2 ** attempt, MAX_RECONNECT_DELAY)

        async def ask_again() -> None:
            await asyncio.sleep(delay)
            # A socket dropped meanwhile is reopened, and its recovery resumes the session anyway.
            if ws is not self._ws or self._state != "ready" or s.done:
                return
            async with self._lock:
                self._awaiting_resume.add(s.id)
                if await self._send_locked({"type": "resume", "session": s.id, "after": s._resume_after}):
                    await self._send_ping_locked(("resume", (s, attempt + 1)))

        task = asyncio.get_running_loop().create_task(ask_again())
        self._resume_retries.add(task)
        task.add_done_callback(self._resume_retries.discard)
