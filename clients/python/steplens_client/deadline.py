"""How long a stream client call waits for the server's answer (``timeout`` of :func:`~steplens_client.stream.connect`),
as the TypeScript client's ``timeoutMs`` (src/client/deadline.ts). ``websockets`` answers the server's pings by itself,
so a server that answers pings but never a frame held ``start``, ``step``, ``end`` and ``ping`` for good (T63). The
deadline ends the caller's wait only: the message stays in flight, and a late answer still lands where the client keeps
it (a step's frames in ``scores`` and ``on_score``, the final in ``session.final``)."""

from __future__ import annotations

import asyncio
import math
from typing import Any, Awaitable, Callable, Optional, TypeVar

from .errors import SteplensError

T = TypeVar("T")

#: The default, as ``SyncClient``'s ``timeout`` and the TypeScript client's ``timeoutMs`` (120 s).
DEFAULT_TIMEOUT = 120.0


def timeout_option(value: Any) -> Optional[float]:
    """``timeout`` as given to ``connect``, checked: seconds, or None (0 too) for no deadline."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"connect: timeout must be a number of seconds, 0 or more (0 or None: no deadline), got {value!r}")
    return float(value) if value > 0 else None


async def within(call: Awaitable[T], timeout: Optional[float], late: Callable[[], SteplensError]) -> T:
    """What ``call`` returns, or ``late()`` raised once ``timeout`` seconds pass without it (None: no deadline).
    ``call`` is cancelled then: what must go on is shielded by the caller, what it held is given up by ``late``."""
    if timeout is None:
        return await call
    try:
        return await asyncio.wait_for(call, timeout)
    except asyncio.TimeoutError:
        raise late() from None
