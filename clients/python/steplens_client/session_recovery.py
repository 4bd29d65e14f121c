"""The half of a :class:`~steplens_client.session.Session` that outlives a dropped socket: what is forgotten on a
drop, where a ``resume`` starts, and sending again what the server did not accept (``resumed``) or, when it
restarted and forgot the session, the session's ``start`` and every step from seq 0. Driven by
:class:`~steplens_client.recovery.Recovery` (the client's reconnecting half)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from .oversized import frame_bytes

if TYPE_CHECKING:
    from .session_parts import Frame, _Link, _Pending


class SessionRecovery:
    """A mixin of :class:`~steplens_client.session.Session`, which holds the state below."""

    id: str
    final: "Optional[Frame]"
    lost: Optional[Any]
    resumed_last: Optional[int]
    needs_restart: bool
    _client: "_Link"
    _next_seq: int
    _max_seen_seq: int
    _pending: "List[_Pending]"
    _stale_seqs: List[int]
    _passed: Optional[bool]
    _end_requested: bool
    _end_message: Optional[Dict[str, Any]]
    _held: bool
    _start_message: Optional[Dict[str, Any]]
    _history: Dict[int, Any]
    _shutdown_final: "Optional[Frame]"
    _replay: Optional[Tuple[int, str]]

    def _on_answered(self, entry: "_Pending") -> None: ...

    def _on_disconnect(self) -> None:
        """The socket dropped: nothing is sent on the new one yet, and no refusal sent on the old one will come."""
        for p in self._pending:
            p.sent = False
        self._stale_seqs.clear()
        self._replay = None
        self.resumed_last = None

    @property
    def _resume_after(self) -> int:
        """The seq before the last one seen, so a seq whose frames were cut in half comes back whole."""
        return max(-1, self._max_seen_seq - 1)

    @property
    def _restartable(self) -> bool:
        """True when the session can be started again on a server that forgot it."""
        return (self._client._reconnect is not None and self.final is None and self.lost is None
                and self._start_message is not None and len(self._history) == self._next_seq)

    async def _restart(self) -> None:
        """The server forgot the session: ``start`` it again under the same id, send every step from
        seq 0 (frames already seen are dropped by ``t``), then the outcome and ``end`` if asked for."""
        self.needs_restart = False
        self._held = False
        self._shutdown_final = None
        start = dict(self._start_message or {})
        again = "(sent again to a restarted server)"
        self._replay = (frame_bytes(start), f"start of session {self.id} {again}")
        await self._client._send(start, recovering=True)
        pending = {p.seq: p for p in self._pending}
        for seq in range(self._next_seq):
            entry = pending.get(seq)
            if entry is not None:
                entry.sent = False
                if not await self._client._send_step(self, entry, recovering=True):
                    return
                continue
            message = {"type": "step", "session": self.id, "seq": seq, "step": self._history[seq]}
            size = frame_bytes(message)
            if size > self._replay[0]:
                self._replay = (size, f"step {seq} of session {self.id} {again}")
            if not await self._client._send(message, recovering=True):
                return
        if not await self._client._send_ping(("replay", self)):
            return
        await self._send_closing()

    async def _recover(self) -> None:
        """After ``resumed`` and its re-sent frames: settle what the server accepted, re-send the rest."""
        self._held = False
        last = self.resumed_last if self.resumed_last is not None else -1
        for p in [p for p in self._pending if p.seq <= last]:
            self._on_answered(p)
        while True:
            unsent = next((p for p in self._pending if not p.sent), None)
            if unsent is None:
                break
            if not await self._client._send_step(self, unsent, recovering=True):
                return
        await self._send_closing()

    async def _send_closing(self) -> None:
        """Sends the outcome and ``end`` again, if they were asked for."""
        if self.final is not None:
            return
        if self._passed is not None:
            await self._client._send({"type": "outcome", "session": self.id, "passed": self._passed}, recovering=True)
        if self._end_requested:
            await self._client._send(self._end_message or {"type": "end", "session": self.id}, recovering=True)
