"""One scoring session as the asyncio client sees it: seq numbering, the steps not yet
answered, every score and signal frame (each step once), and the final."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable, Dict, List, Optional, Tuple

from .errors import SteplensError
from .deadline import within
from .outcome import outcome_flag
from .oversized import frame_bytes
from .session_parts import Frame, _Link, _Pending, _read_outcome
from .session_recovery import SessionRecovery

# Codes the server refuses an ``end`` with (no ``seq`` names it): see src/client/end-message.ts (the TypeScript client's END_REFUSALS).
_END_REFUSALS = frozenset({"unavailable", "internal"})
# And an ``end`` that carries a patch (src/server/end-patch.ts): not a diff, over the frame limit, or past the step bytes.
_END_PATCH_REFUSALS = frozenset({"bad_message", "too_large", "quota_exceeded", "overloaded"})
#: Longest patch an ``end`` may carry, in UTF-16 code units as the server counts them (MAX_END_PATCH_CHARS, src/protocol).
MAX_END_PATCH_CHARS = 512 * 1024

class Session(SessionRecovery):
    """A session opened with :meth:`StreamClient.start` (or attached with :meth:`StreamClient.resume`).

    ``await step(payload)`` returns the ``score`` frames of that step message (``[]`` when it
    completes no step, e.g. an action still waiting for its observation): every step is followed
    by a ``ping``, and the server answers a connection's messages in order, so its ``pong`` means
    every frame of that seq has arrived. Steps may be pipelined (``asyncio.gather``). A refused
    step raises :class:`SteplensError` with the server's code and its seq is reused; the client
    does not send it again. A step over the server's frame limit (which may be below
    ``max_frame_bytes``) raises ``too_large``: send a smaller payload (an observation cut short)
    or go on without it. Steps pipelined after a refused one raise ``out_of_order`` at once, naming
    the refused seq (the server would refuse them too; they are not sent again and its refusals
    are ignored): send them again, in order, the first taking the refused seq. A step over 8x the
    server's limit is not refused but closed (1009): it raises ``too_large`` all the same and is
    not sent again when the client reconnects; the steps after it raise as above.

    A ``step`` whose caller stops waiting (the client's ``timeout``, which raises ``timeout`` naming the seq;
    ``asyncio.wait_for`` timing out, a cancel, the blocking client's ``timeout``) is not withdrawn: it was sent, or is about to be, and the server scores it.
    Calling ``step`` again with the same payload is a retry: it gets that step's seq and answer, and
    the step is scored once. A different payload means the caller moved on: it gets the next seq, and
    the step that timed out stands as sent.

    When the socket drops and the client reconnects, nothing raises: the client sends
    ``resume``, drops frames it already saw (by step index ``t``), resolves the steps the server
    had accepted and sends the others again, so no step is lost or counted twice.
    """

    def __init__(self, client: _Link, session_id: str, started: Optional[Frame], next_seq: int = 0,
                 start_message: Optional[Dict[str, Any]] = None) -> None:
        self.id = session_id
        #: The ``started`` frame (None for a session attached with ``resume``).
        self.started = started
        self.task: Optional[str] = started.get("task") if started else None
        self.format: Optional[str] = started.get("format") if started else None
        #: What the session is scored against: ``{"kind": "pta"|"prior", ...}``.
        self.reference: Optional[Dict[str, Any]] = started.get("reference") if started else None
        #: Every score frame so far, in step order, each once.
        self.scores: List[Frame] = []
        #: Every signal frame so far, each once.
        self.signals: List[Frame] = []
        #: The ``final`` frame, once the session has ended.
        self.final: Optional[Frame] = None
        self.lost: Optional[SteplensError] = None
        self._client = client
        self._next_seq = next_seq
        self._max_seen_seq = next_seq - 1
        self._passed: Optional[bool] = None
        self._end_requested = False
        # The ``end`` message as first asked for (with its patch, if any): sent again as it was after a reconnect.
        self._end_message: Optional[Dict[str, Any]] = None
        self._pending: List[_Pending] = []
        # Seqs of steps raised by _drop_after that were sent on this socket: the server's refusals of them are ignored.
        self._stale_seqs: List[int] = []
        # Steps no caller waits for (their caller timed out or was cancelled), by seq: a retry with the same payload
        # takes the oldest one's answer instead of sending it under a new seq (which would score it twice).
        self._abandoned: List[_Pending] = []
        self._end_waiters: List["asyncio.Future[Frame]"] = []
        self._seen_t: set = set()
        self._seen_signals: set = set()
        self._score_listeners: List[Callable[[Frame], None]] = []
        self._signal_listeners: List[Callable[[Frame], None]] = []
        self.resumed_last: Optional[int] = None
        #: Set during recovery when the server no longer knows the session (it restarted).
        self.needs_restart = False
        # The server refused the resume with ``unavailable`` (its shared store unreachable): it is asked again, and
        # meanwhile (``_held``) steps, outcome and end wait unsent, as during a reconnect.
        self.resume_refused: Optional[SteplensError] = None
        self._held = False
        # To start the session again on a restarted server: its ``start`` and every step payload by seq.
        self._start_message = start_message
        self._history: Dict[int, Any] = {}
        self._shutdown_final: Optional[Frame] = None
        # The largest frame of a restart (its start, a step sent again: size, what) until the ping after them is
        # answered: a restarted server with a lower limit may close the socket (1009) over it.
        self._replay: Optional[Tuple[int, str]] = None

    @property
    def score(self) -> Optional[Frame]:
        """The last score frame (the trajectory's score so far), if any step was scored."""
        return self.scores[-1] if self.scores else None

    @property
    def done(self) -> bool:
        """True once the session has ended or is lost."""
        return self.final is not None or self.lost is not None

    @property
    def next_seq(self) -> int:
        """The seq the next ``step`` will carry."""
        return self._next_seq

    async def step(self, payload: Any) -> List[Frame]:
        """Sends one step payload (a steplens step, or one raw event of the session's format) with
        the next seq; returns the score frames of that seq. The same payload again right after a
        call that timed out or was cancelled is a retry of that step (its seq, scored once)."""
        entry = self._submit(payload)
        return await self._wait(entry)

    def _submit(self, payload: Any) -> _Pending:
        """The step of ``payload``: a step in flight whose caller stopped waiting when this is its retry, else a
        new one with the next seq, being sent. Runs on the client's loop; no await, so no other step comes between."""
        self._check_usable()
        seq = self._next_seq
        if payload is None:
            raise SteplensError("bad_input", "step: expected a payload, got None", session=self.id, seq=seq)
        try:
            # Strict JSON: Python writes NaN and Infinity, which are not JSON; the server would refuse the frame
            # without naming its seq, and every later step would be out of order.
            key = json.dumps(payload, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise SteplensError("bad_input", f"step: the payload is not JSON ({e})", session=self.id, seq=seq) from None
        if self._abandoned:
            oldest, self._abandoned = self._abandoned[0], self._abandoned[1:]
            if oldest.key == key:
                return oldest
            self._abandoned = []  # another payload: the caller moved on, and the steps that timed out stand as sent
        # The frame's size, as it will be sent.
        size = frame_bytes({"type": "step", "session": self.id, "seq": seq, "step": payload})
        if size > self._client.max_frame_bytes:
            raise SteplensError("too_large", f"step of {size} bytes exceeds the frame limit of {self._client.max_frame_bytes}", session=self.id, seq=seq)
        self._next_seq = seq + 1
        if self._client._reconnect is not None:
            self._history[seq] = payload
        entry = _Pending(seq, payload, key, asyncio.get_running_loop().create_future())
        entry.bytes = size
        self._pending.append(entry)
        entry.task = asyncio.ensure_future(self._deliver(entry))
        entry.task.add_done_callback(_read_outcome)
        return entry

    async def _deliver(self, entry: _Pending) -> List[Frame]:
        await self._client._send_step(self, entry)
        return await entry.future

    async def _wait(self, entry: _Pending) -> List[Frame]:
        """The answer of a step from :meth:`_submit`; the client's ``timeout``, a caller's own timeout or cancel
        leaves it in flight, abandoned (the same payload again is its retry)."""
        assert entry.task is not None
        late = (f"no answer within {self._client.timeout} s to step {entry.seq}, which was sent and may be scored: call "
                "step() again with the same payload to get its answer (it is not scored twice)")
        try:
            return await within(asyncio.shield(entry.task), self._client.timeout,
                                lambda: SteplensError("timeout", late, session=self.id, seq=entry.seq))
        except (asyncio.CancelledError, SteplensError) as stopped:
            if isinstance(stopped, asyncio.CancelledError) or (stopped.code == "timeout" and not entry.task.done()):
                self._abandon(entry)
            raise

    def _abandon(self, entry: _Pending) -> None:
        """No caller waits for this step's answer any more (kept in seq order, for a retry to take)."""
        if entry not in self._abandoned and entry.task is not None and not entry.task.cancelled():
            self._abandoned.append(entry)
            self._abandoned.sort(key=lambda p: p.seq)

    def signals_of(self, seq: int) -> List[Frame]:
        """The signal frames that fired on the step message ``seq``."""
        return [s for s in self.signals if s.get("seq") == seq]

    async def outcome(self, passed: bool) -> None:
        """Records the task's test result (before ``end``)."""
        self._check_usable()
        self._passed = outcome_flag(passed)
        if not self._held:
            await self._client._send({"type": "outcome", "session": self.id, "passed": self._passed})

    async def end(self, patch: Optional[str] = None) -> Frame:
        """Ends the session and returns the ``final`` frame (at once when it has ended already). An ``end`` in flight
        (a call that timed out) is not sent again: this call waits for its final.

        ``patch``: the run's final patch, the unified diff of its work (``git diff`` in its sandbox; ``""`` for no
        change), at most :data:`MAX_END_PATCH_CHARS` characters. The server keeps its class (``final["patch"]``:
        ``key``, ``lines``), not its text, so that :meth:`HttpClient.rank` with ``basis="vote"`` can rank the session.
        A patch that is not a string or too long raises ``bad_input`` before anything is sent, one that makes the end's
        frame larger than ``max_frame_bytes`` (UTF-8 bytes: non-ASCII text) ``too_large``; one the server refuses
        (not a diff, past the tenant's step bytes) raises its code, and the session stays open: call ``end`` again.
        The patch of the first ``end`` that is not refused counts."""
        if self.final is not None:
            return self.final
        self._check_usable()
        if patch is not None:
            _check_patch(patch, self.id, self._client.max_frame_bytes)
        future: "asyncio.Future[Frame]" = asyncio.get_running_loop().create_future()
        self._end_waiters.append(future)
        # An end in flight (an earlier call timed out or was cancelled) answers this call too: it is not sent twice.
        in_flight = self._end_requested
        if self._end_message is None or not self._end_requested:
            self._end_message = {"type": "end", "session": self.id, **({"patch": patch} if patch is not None else {})}
        self._end_requested = True

        async def final() -> Frame:
            if not self._held and not in_flight:
                # Sent whole even when this call stops waiting first: a later ``end()`` counts on it being in flight.
                await asyncio.shield(self._client._send(self._end_message))
            return await future

        late = f"no final within {self._client.timeout} s for session {self.id}: the end stays in flight; end() again waits for its final"
        return await within(final(), self._client.timeout, lambda: SteplensError("timeout", late, session=self.id))

    def on_score(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        """Calls ``callback`` with every new score frame; returns an unsubscribe function."""
        self._score_listeners.append(callback)
        return lambda: self._score_listeners.remove(callback)

    def on_signal(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        """Calls ``callback`` with every new signal frame; returns an unsubscribe function."""
        self._signal_listeners.append(callback)
        return lambda: self._signal_listeners.remove(callback)

    def _check_usable(self) -> None:
        if self.lost is not None:
            raise self.lost
        if self._client.failure is not None:
            raise self._client.failure
        if self.final is not None:
            raise SteplensError("bad_input", f"session {self.id} has ended", session=self.id)

    # Frames routed by the client.

    def _on_score(self, frame: Frame) -> None:
        self._max_seen_seq = max(self._max_seen_seq, frame["seq"])
        if frame["t"] in self._seen_t:
            return
        self._seen_t.add(frame["t"])
        self.scores.append(frame)
        for p in self._pending:
            if p.seq == frame["seq"]:
                p.frames.append(frame)
        self._client._emit(self._score_listeners, frame)

    def _on_signal(self, frame: Frame) -> None:
        self._max_seen_seq = max(self._max_seen_seq, frame["seq"])
        # One step can fire two signals of one kind (a budget of steps and one of tokens): the message tells them apart.
        key = (frame["kind"], frame["t"], frame.get("severity"), frame.get("message"))
        if key in self._seen_signals:
            return
        self._seen_signals.add(key)
        self.signals.append(frame)
        for p in self._pending:
            if p.seq == frame["seq"]:
                p.signals.append(frame)
        self._client._emit(self._signal_listeners, frame)

    def _on_final(self, frame: Frame) -> None:
        if frame.get("reason") == "shutdown" and not self._end_requested and self._client._reconnect is not None:
            # The server is going away, not the session: it is started again once the client reconnects.
            self._shutdown_final = frame
            return
        if self.final is None:
            self.final = frame
        for w in self._end_waiters:
            if not w.done():
                w.set_result(self.final)
        self._end_waiters.clear()

    def _on_answered(self, entry: _Pending) -> None:
        if entry in self._pending:
            self._pending.remove(entry)
            if not entry.future.done():
                entry.future.set_result(entry.frames)

    def _on_error(self, error: SteplensError) -> bool:
        """An error frame naming this session; False when no pending call took it."""
        if error.code == "unknown_session":
            self._fail(error, lose=True)
            return True
        if error.seq is not None:
            if error.seq in self._stale_seqs:
                # The refusal of a step already raised as pipelined after a refused one (below): nothing waits on it.
                self._stale_seqs.remove(error.seq)
                return True
            for p in self._pending:
                if p.seq == error.seq:
                    self._pending.remove(p)
                    self._next_seq = min(self._next_seq, error.seq)
                    for seq in [k for k in self._history if k >= self._next_seq]:
                        del self._history[seq]
                    if not p.future.done():
                        p.future.set_exception(error)
                    self._drop_after(error.seq)
                    return True
        # A refused ``end`` comes back without a seq: the shared store unreachable (``unavailable``) or a server
        # fault. Its waiters get the error, else ``end()`` would wait for good; a later ``end()`` sends it again.
        with_patch = self._end_message is not None and "patch" in self._end_message
        if self._end_waiters and (error.code in _END_REFUSALS or (with_patch and error.code in _END_PATCH_REFUSALS)):
            self._end_requested = False
            waiters, self._end_waiters = self._end_waiters, []
            for w in waiters:
                if not w.done():
                    w.set_exception(error)
            return True
        return False

    def _drop_after(self, seq: int) -> None:
        """Steps pipelined after the refused ``seq`` can only be refused ``out_of_order``: they raise now, so the
        caller's next ``step`` takes the refused seq at once, and are not sent again. Waiting for the server's refusals
        instead let a step sent meanwhile be accepted and then its seq handed out again (sent as a duplicate, its
        payload dropped); those refusals are ignored."""
        for p in [p for p in self._pending if p.seq > seq]:
            self._pending.remove(p)
            if p.sent:
                self._stale_seqs.append(p.seq)
            if not p.future.done():
                p.future.set_exception(SteplensError(
                    "out_of_order", f"step {p.seq} follows step {seq}, which the server refused: send it again after that seq",
                    session=self.id, seq=p.seq))

    def _fail(self, error: SteplensError, lose: bool) -> None:
        if lose and self.lost is None:
            self.lost = error
        for p in self._pending:
            if not p.future.done():
                p.future.set_exception(error)
        self._pending.clear()
        last = self._shutdown_final
        if last is not None and self.final is None:
            self.final = last
        for w in self._end_waiters:
            if not w.done():
                if last is not None:
                    w.set_result(last)
                else:
                    w.set_exception(error)
        self._end_waiters.clear()

    @property
    def _idle(self) -> bool:
        return not self._pending and not self._end_waiters


def _check_patch(patch: Any, session: str, max_frame_bytes: int) -> None:
    """Raises ``bad_input`` for a patch the server would refuse for its type or length, ``too_large`` for one that
    makes the end's frame larger than the frame limit (its UTF-8 bytes count there; nothing is sent)."""
    if not isinstance(patch, str):
        raise SteplensError("bad_input", f"end: patch must be a string, the unified diff of the run's final work (git diff), "
                                         f"got {type(patch).__name__}", session=session)
    units = len(patch.encode("utf-16-le")) // 2
    if units > MAX_END_PATCH_CHARS:
        raise SteplensError("bad_input", f"end: patch of {units} characters is over the server's limit of {MAX_END_PATCH_CHARS} "
                                         "(MAX_END_PATCH_CHARS); the session stays open", session=session)
    size = frame_bytes({"type": "end", "session": session, "patch": patch})
    if size > max_frame_bytes:
        utf8 = len(patch.encode("utf-8", "surrogatepass"))
        raise SteplensError("too_large", f"end.patch: {utf8} bytes in UTF-8 ({units} characters) make the end's frame {size} bytes, "
                                         f"over the frame limit of {max_frame_bytes}; the session stays open: end again with a "
                                         "shorter patch, or none", session=session)
