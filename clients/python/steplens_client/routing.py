"""Reading the stream client's socket: each frame routed to the session, start, resume or ping waiting for it, and
what a malformed frame fails (a mixin of :class:`~steplens_client.stream.StreamClient`, which holds the state)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Deque, Dict, Set, Tuple

from .errors import SteplensError
from .frames import parse_frame
from .session import Frame, Session
from .socket import ConnectionClosed


class Routing:
    """The receiving half of the stream client (a mixin: the state lives in ``StreamClient``)."""

    _ws: Any
    _state: str
    _sessions: Dict[str, Session]
    _starting: Dict[str, Tuple[Dict[str, Any], "asyncio.Future[Session]"]]
    _start_sockets: Dict[str, Any]
    _resuming: Dict[str, "asyncio.Future[Session]"]
    _pongs: Deque[Tuple[str, Any]]
    _awaiting_resume: Set[str]

    if TYPE_CHECKING:  # provided by StreamClient and Recovery (not defined here: a stub would shadow them)
        def _report(self, error: Any) -> None: ...
        async def _on_close(self, ws: Any) -> bool: ...
        async def _finish_recovery(self) -> None: ...
        async def _after_resume(self, s: Session, attempt: int) -> None: ...

    async def _run(self) -> None:
        while True:
            ws = self._ws
            try:
                async for data in ws:
                    await self._on_frame(data)
            except ConnectionClosed:
                pass
            except Exception as error:  # a bug in a listener must not kill the connection silently
                self._report(error)
                continue
            if self._state == "closed" or ws is not self._ws:
                return
            if not await self._on_close(ws):
                return

    async def _on_frame(self, text: str) -> None:
        ok, frame = parse_frame(text)
        if not ok:
            return self._bad_frame(frame)
        kind = frame["type"]
        sid = frame.get("session")
        session = self._sessions.get(sid) if sid is not None else None
        if kind == "started":
            self._start_sockets.pop(sid, None)
            entry = self._starting.pop(sid, None)
            if entry is not None:
                session = Session(self, sid, frame, start_message=entry[0])
                self._sessions[sid] = session
                if not entry[1].done():
                    entry[1].set_result(session)
        elif kind == "score" and session is not None:
            session._on_score(frame)
        elif kind == "signal" and session is not None:
            session._on_signal(frame)
        elif kind == "final" and session is not None:
            session._on_final(frame)
        elif kind == "resumed":
            self._on_resumed(frame)
        elif kind == "error":
            self._on_error_frame(frame)
        elif kind == "pong":
            await self._on_pong()
        # Any other type was added to the protocol after this client: ignored.
        self._forget_finished()

    def _on_resumed(self, frame: Frame) -> None:
        sid = frame["session"]
        future = self._resuming.pop(sid, None)
        if future is not None:
            session = self._sessions[sid] = Session(self, sid, None, next_seq=frame["last"] + 1)
            if not future.done():
                future.set_result(session)
        elif sid in self._sessions:
            self._awaiting_resume.discard(sid)
            self._sessions[sid].resumed_last = frame["last"]

    def _on_error_frame(self, frame: Frame) -> None:
        sid, seq = frame.get("session"), frame.get("seq")
        error = SteplensError(frame["code"], frame["message"], session=sid, seq=seq)
        if sid in self._starting:
            self._start_sockets.pop(sid, None)
            _, future = self._starting.pop(sid)
            if not future.done():
                future.set_exception(error)
            return
        if sid in self._resuming:
            future = self._resuming.pop(sid)
            if not future.done():
                future.set_exception(error)
            return
        if sid is None and error.code == "too_large" and self._pongs and self._pongs[0][0] == "step":
            # A server that does not read the head of a frame over its limit names no step: each step is followed
            # by its own ping, so the step it refused is the one whose pong comes next.
            owner, entry = self._pongs[0][1]
            if owner._on_error(SteplensError(error.code, error.message, session=owner.id, seq=entry.seq)):
                return
        session = self._sessions.get(sid) if sid is not None else None
        resume = session is not None and seq is None and sid in self._awaiting_resume
        if resume:
            self._awaiting_resume.discard(sid)
        if session is not None and error.code == "unknown_session" and (self._state == "recovering" or resume) and session._restartable:
            session.needs_restart = True  # the server restarted: start it again once recovery ends
            return
        if session is not None and resume and error.code == "unavailable":
            session.resume_refused = error  # its shared store is unreachable: asked again with backoff
            return
        if session is None or not session._on_error(error):
            self._report(error)

    async def _on_pong(self) -> None:
        if not self._pongs:
            return
        kind, value = self._pongs.popleft()
        if kind == "ping":
            if not value.done():
                value.set_result(None)
        elif kind == "step":
            session, entry = value
            session._on_answered(entry)
        elif kind == "recovery":
            await self._finish_recovery()
        elif kind == "resume":
            session, attempt = value
            await self._after_resume(session, attempt)
        elif kind == "replay":
            value._replay = None  # the restart's frames were all read

    def _forget_finished(self) -> None:
        for sid in [sid for sid, s in self._sessions.items() if s.done and s._idle]:
            del self._sessions[sid]

    def _bad_frame(self, detail: str) -> None:
        """A malformed frame: every pending call fails (its answer may have been that frame)."""
        error = SteplensError("bad_frame", f"the server sent a malformed frame: {detail}")
        for _, future in self._starting.values():
            if not future.done():
                future.set_exception(error)
        self._starting.clear()
        for future in self._resuming.values():
            if not future.done():
                future.set_exception(error)
        self._resuming.clear()
        for s in self._sessions.values():
            s._fail(error, lose=False)
        for kind, value in list(self._pongs):
            if kind == "ping" and not value.done():
                value.set_exception(error)
        self._report(error)
