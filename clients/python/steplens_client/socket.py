"""Opening one WebSocket to the server with whichever ``websockets`` API is installed
(``websockets.asyncio.client`` from 13.0, the legacy ``websockets.client`` before), with
refusals and failures as :class:`SteplensError`."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Optional

try:
    import websockets  # noqa: F401  (only to tell a missing package from an old one)
except ImportError as e:  # HTTP works without it; streaming does not
    raise ImportError("steplens_client: streaming (connect, SyncClient, StepHook, step_rewards) needs the websockets package, "
                      "10.4 or newer: `pip install websockets` (Debian/Ubuntu: `apt-get install python3-websockets`); "
                      "HttpClient and the HTTP reward functions do not", name=e.name) from e
try:  # websockets >= 13
    from websockets.asyncio.client import connect as _connect
    _HEADERS_ARG = "additional_headers"
except ImportError:  # websockets 10-12 (Debian bookworm ships 10.4)
    from websockets.client import connect as _connect  # type: ignore[no-redef]
    _HEADERS_ARG = "extra_headers"
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .errors import SteplensError
from .urls import stream_url

__all__ = ["ConnectionClosed", "open_socket", "stream_url"]


def _status_of(error: BaseException) -> Optional[int]:
    status = getattr(error, "status_code", None)  # legacy InvalidStatusCode
    if status is None:
        response = getattr(error, "response", None)  # InvalidStatus (>= 13)
        status = getattr(response, "status_code", None)
    return status if isinstance(status, int) else None


def _reason_of(error: BaseException) -> str:
    """`` code: message`` of the server's JSON error answer to a refused upgrade (a tenant's quota of
    connections, ...), when the installed ``websockets`` keeps the body (13.0 and newer), else ''."""
    body = getattr(getattr(error, "response", None), "body", None)
    try:
        err = json.loads(body or b"").get("error", {}) if isinstance(body, (bytes, str)) else {}
    except (ValueError, RecursionError, AttributeError):
        return ""
    code, message = (err.get("code"), err.get("message")) if isinstance(err, dict) else (None, None)
    return f" {code}: {message}" if isinstance(code, str) and isinstance(message, str) else ""


#: Seconds ``close()`` waits for the server's close handshake before it drops the connection (the TS client's too).
CLOSE_TIMEOUT_S = 2.0


async def open_socket(url: str, token: Optional[str], *, max_size: Optional[int] = 64 * 1024 * 1024,
                      open_timeout: float = 10.0) -> Any:
    """Opens a socket to ``url`` (a stream URL); raises ``unauthorized``/``refused`` (an HTTP
    answer to the upgrade) or ``unreachable``."""
    # close_timeout: a peer that stopped answering (a hung server, a half-open link) holds close() this long at most.
    kwargs: dict = {"max_size": max_size, "open_timeout": open_timeout, "close_timeout": CLOSE_TIMEOUT_S}
    if token:
        kwargs[_HEADERS_ARG] = {"Authorization": f"Bearer {token}"}
    try:
        return await _connect(url, **kwargs)
    except InvalidHandshake as e:
        status = _status_of(e)
        code = "unauthorized" if status == 401 else "refused"
        raise SteplensError(code, f"{url}: the server refused the connection (HTTP {status or '?'}{_reason_of(e)})") from None
    except (OSError, asyncio.TimeoutError) as e:
        raise SteplensError("unreachable", f"cannot reach {url}: {e or type(e).__name__}") from None
