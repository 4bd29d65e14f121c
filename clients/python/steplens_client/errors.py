"""The one exception type the client raises: a stable code, a message, and where it happened."""

from __future__ import annotations

from typing import Optional

#: Codes the server sends in `error` frames and HTTP error bodies (protocol v1), plus the
#: client's own: ``bad_url``, ``unreachable``, ``refused``, ``disconnected`` (the connection was
#: lost; on HTTP, closed while the request was sent or before its answer: a body over the server's
#: limit is refused so), ``closed``, ``bad_frame`` (the server sent something that is not protocol
#: v1), ``bad_input`` (an argument the client cannot send), ``timeout``, ``http_error`` (an HTTP
#: error without a body).
CLIENT_CODES = ("bad_url", "unreachable", "refused", "disconnected", "closed", "bad_frame", "bad_input", "timeout", "http_error")


class SteplensError(Exception):
    """A failed call. ``code`` says why (a wire code such as ``unknown_session`` or one of
    :data:`CLIENT_CODES`); ``session``/``seq`` say which message, ``status`` the HTTP status."""

    def __init__(self, code: str, message: str, *, session: Optional[str] = None, seq: Optional[int] = None,
                 status: Optional[int] = None) -> None:
        where = []
        if session is not None:
            where.append(f"session {session}")
        if seq is not None:
            where.append(f"seq {seq}")
        if status is not None:
            where.append(f"HTTP {status}")
        suffix = f" ({', '.join(where)})" if where else ""
        super().__init__(f"{code}: {message}{suffix}")
        self.code = code
        self.message = message
        self.session = session
        self.seq = seq
        self.status = status
