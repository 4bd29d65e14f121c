"""What a :class:`~steplens_client.session.Session` and its recovery half share: the frame type, what a session
needs of its client, and one step in flight. Apart from session.py so that session_recovery.py needs no import of it."""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Dict, List, Optional, Protocol

from .errors import SteplensError

Frame = Dict[str, Any]


class _Link(Protocol):
    """What a session needs of its client (:class:`StreamClient` in stream.py, which imports this module)."""

    max_frame_bytes: int
    timeout: Optional[float]
    failure: Optional[SteplensError]
    _reconnect: Optional[Any]

    async def _send(self, message: Dict[str, Any], recovering: bool = False) -> bool: ...

    async def _send_step(self, session: Any, entry: "_Pending", recovering: bool = False) -> bool: ...

    async def _send_ping(self, waiter: Any) -> bool: ...

    def _emit(self, listeners: List[Callable[..., None]], value: Any) -> None: ...


def _read_outcome(task: "asyncio.Future[Any]") -> None:
    """Marks a step's error as read: a step whose caller stopped waiting may fail with nobody left to see it."""
    if not task.cancelled():
        task.exception()


class _Pending:
    __slots__ = ("seq", "payload", "key", "bytes", "frames", "signals", "future", "sent", "task")

    def __init__(self, seq: int, payload: Any, key: str, future: "asyncio.Future[List[Frame]]") -> None:
        self.seq = seq
        self.payload = payload
        #: The payload as canonical JSON: a retry of a step whose caller stopped waiting is recognised by it.
        self.key = key
        #: Bytes of its frame (a 1009 close is matched to the largest frame in flight).
        self.bytes = 0
        self.frames: List[Frame] = []
        self.signals: List[Frame] = []
        self.future = future
        self.sent = False
        #: Sends the step and waits for its answer; callers wait on it shielded, so a caller's timeout or
        #: cancel leaves the step in flight (it may be scored already) for a retry to pick up.
        self.task: "Optional[asyncio.Future[List[Frame]]]" = None
