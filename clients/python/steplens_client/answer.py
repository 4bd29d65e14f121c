"""Reading an HTTP answer's body within bounds: a server (or what stands in for one: a proxy, a wrong URL) that
answers without end, or a byte at a time, must not take the client's memory or hold it past its timeout. urllib's
``read()`` kept the whole body, however large, and its timeout bounds each wait for a byte, not the answer."""

from __future__ import annotations

import time
from typing import Any

from .errors import SteplensError

#: Bytes of an answer the HTTP client reads at most **(choice)**: far above the server's largest (a batch of
#: 1,024 reports, a 16 MiB PTA), far below what would exhaust a trainer's memory. ``HttpClient(max_answer_bytes=)``.
MAX_ANSWER_BYTES = 256 * 1024 * 1024
#: Bytes of an error answer read: the server's own are under 1 KiB (their messages are clipped), and a
#: message shows its first 300 characters.
MAX_ERROR_BYTES = 64 * 1024
_CHUNK = 64 * 1024


def read_answer(res: Any, limit: int, timeout: float, what: str) -> bytes:
    """The body of ``res`` (an ``http.client.HTTPResponse``), read a piece at a time: ``too_large`` past ``limit``
    bytes, ``timeout`` when it is not all read within ``timeout`` seconds of its headers (each wait for a piece
    is bounded by the socket's own timeout, so the whole read ends within twice ``timeout`` at most)."""
    declared = res.getheader("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise SteplensError("too_large", f"{what}: the server's answer of {int(declared):,} bytes is over the client's limit "
                            f"of {limit:,} (max_answer_bytes)")
    end = time.monotonic() + timeout
    parts = []
    size = 0
    while True:
        piece = res.read1(_CHUNK)
        if not piece:
            return b"".join(parts)
        size += len(piece)
        if size > limit:
            raise SteplensError("too_large", f"{what}: the server's answer passed the client's limit of {limit:,} bytes "
                                "(max_answer_bytes); the rest was not read")
        parts.append(piece)
        if time.monotonic() > end:
            raise SteplensError("timeout", f"{what}: the server's answer was not all read within {timeout} s of its "
                                f"headers ({size:,} bytes came)")


def read_error_text(res: Any, timeout: float, what: str) -> str:
    """An error answer's first :data:`MAX_ERROR_BYTES` as text (the rest is not read: the connection is closed)."""
    try:
        return read_answer(res, MAX_ERROR_BYTES, timeout, what).decode("utf-8", "replace")
    except SteplensError as e:
        if e.code == "too_large":
            return f"(an error answer over {MAX_ERROR_BYTES:,} bytes, not read)"
        return f"(an error answer not read whole: {e})"
