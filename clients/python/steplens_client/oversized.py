"""Which frame a 1009 close is about. The server closes the socket with 1009 on a frame over 8x its frame limit
(``ws``'s maxPayload), too large to even refuse: the client refuses that frame here, else every reconnect would
send it again, and be closed again, for good (see src/client/oversized.ts). And the other way: a frame from the
server over the client's ``max_server_frame_bytes``, which ``websockets`` refuses unread, closing the socket 1009
itself (src/client/server-frame-limit.ts)."""

from __future__ import annotations

import json
from typing import Any, Callable, List, Optional, Tuple

from .errors import SteplensError

#: The WebSocket close code for a message too big to process.
MESSAGE_TOO_BIG = 1009
#: Bytes of a frame from the server the stream client reads at most **(choice)**: ``max_server_frame_bytes`` of
#: ``connect``, far above the server's largest frame (a long session's ``final``).
MAX_SERVER_FRAME_BYTES = 64 * 1024 * 1024


def server_frame_limit(value: Any) -> int:
    """``max_server_frame_bytes`` as given to ``connect``, checked: a whole number of bytes, 1 or more."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"connect: max_server_frame_bytes must be a whole number of bytes, 1 or more, got {value!r}")
    return value


def server_frame_too_big(ws: Any, limit: int, url: str) -> Optional[SteplensError]:
    """The error of a socket ``websockets`` closed (1009, sent by the client) over a frame from the server larger than
    ``limit``: it read as ``closed (1006)``, and a reconnect resumed the session, which had the server send it again,
    for good. None for any other close."""
    state = ws if hasattr(ws, "close_sent") else getattr(ws, "protocol", None)  # websockets < 13, >= 13
    sent, rcvd = getattr(state, "close_sent", None), getattr(state, "close_rcvd", None)
    # Sent first: the server's own 1009 close (a frame of the client's over its limit) is echoed with 1009 too.
    if getattr(sent, "code", None) != MESSAGE_TOO_BIG or (rcvd is not None and getattr(state, "close_rcvd_then_sent", None) is not False):
        return None
    return SteplensError("too_large", f"{url} sent a frame over the client's limit of {limit} bytes (max_server_frame_bytes): it was "
                         "not read, the connection was closed (1009) and is not reopened (a resume would have the server send it "
                         "again); connect with a larger max_server_frame_bytes to receive it")


def frame_text(message: Any) -> str:
    """The text of a message's frame: compact JSON with text as UTF-8, as the TypeScript client writes it
    (``JSON.stringify``), so a step is as large here as there and under the same frame limit. Python's default
    (``", "`` separators, non-ASCII as ``\\uXXXX``) made real steps up to 17 % larger. A string holding a lone
    surrogate (which ``json.loads`` accepts from a log's ``\\ud83d``) is not UTF-8: that message keeps escapes."""
    text = json.dumps(message, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(message, allow_nan=False, separators=(",", ":"))
    return text


def frame_bytes(message: Any) -> int:
    """Bytes of a message's frame as the client sends it (:func:`frame_text` in UTF-8)."""
    return len(frame_text(message).encode("utf-8"))


def refuse_oversized(client: Any, ws: Any, close: str) -> bool:
    """Refuses ``too_large`` the largest frame sent on ``ws`` and not answered (a frame over 8x the limit outweighs
    all the others): a step raises as the server's refusal would, its seq going to the next step; a start raises
    and nothing of it is kept (the server never read it); a session whose start or steps sent again to a restarted
    server were over its limit is lost. False when nothing was in flight."""
    frames: List[Tuple[int, str, Callable[[str], Any]]] = []
    for s in client._sessions.values():
        for p in s._pending:
            if p.sent:
                frames.append((p.bytes, f"step {p.seq} of session {s.id}",
                               lambda m, s=s, p=p: s._on_error(SteplensError("too_large", m, session=s.id, seq=p.seq))))
        if s._replay is not None:
            size, what = s._replay
            frames.append((size, what, lambda m, s=s: s._fail(SteplensError("too_large", m, session=s.id), lose=True)))
    for sid, (message, future) in client._starting.items():
        if client._start_sockets.get(sid) is ws:
            frames.append((frame_bytes(message), f"start of session {sid}", lambda m, sid=sid: _refuse_start(client, sid, m)))
    if not frames:
        return False
    size, what, refuse = max(frames, key=lambda f: f[0])
    refuse(f"{what}: its frame of {size} bytes is over the server's limit (it closed the connection: {close}); not accepted")
    return True


def _refuse_start(client: Any, sid: str, message: str) -> None:
    _, future = client._starting.pop(sid)
    client._start_sockets.pop(sid, None)
    if not future.done():
        future.set_exception(SteplensError("too_large", message, session=sid))
