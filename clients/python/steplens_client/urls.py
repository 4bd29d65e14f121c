"""A server address and the URLs the client builds from it. The address may carry a path (a server behind a reverse
proxy under a prefix, ``https://host/steplens``): every HTTP route and the stream go under it."""

from __future__ import annotations

import urllib.parse

from .errors import SteplensError

#: The server's WebSocket route (proto/README.md).
STREAM_PATH = "/v1/stream"


def base_url(url: str) -> str:
    """``http(s)://host:port[/prefix]`` of a server address: its path kept (without a trailing slash, or a trailing
    ``/v1/stream``: a ``ws(s)://.../v1/stream`` URL is accepted too), its query and fragment dropped."""
    parts = urllib.parse.urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.netloc:
        raise SteplensError("bad_url", f"expected an http(s):// or ws(s):// server address (got {url!r})")
    return f"{scheme}://{parts.netloc}{_prefix(parts.path)}"


def stream_url(url: str) -> str:
    """The stream URL of a server address: an ``http(s)`` address becomes ``ws(s)`` with ``/v1/stream`` added to its
    path (``http://host/prefix`` -> ``ws://host/prefix/v1/stream``); a ``ws(s)`` URL is the stream URL as given
    (``/v1/stream`` added when its path is empty). Raises ``bad_url`` for anything else."""
    parts = urllib.parse.urlsplit(url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    if scheme not in ("ws", "wss") or not parts.netloc:
        raise SteplensError("bad_url", f"expected http(s):// or ws(s):// (got {url!r})")
    if parts.scheme in ("ws", "wss") and parts.path not in ("", "/"):
        path = parts.path
    else:
        path = _prefix(parts.path) + STREAM_PATH
    return urllib.parse.urlunsplit((scheme, parts.netloc, path, parts.query, ""))


def _prefix(path: str) -> str:
    """The path the server's routes go under: ``path`` without trailing slashes and a trailing ``/v1/stream``."""
    path = path.rstrip("/")
    if path.endswith(STREAM_PATH):
        path = path[: -len(STREAM_PATH)].rstrip("/")
    return path
