"""Server frame text → a frame dict, or a description of what is wrong with it."""

from __future__ import annotations

import json
import reprlib
from typing import Any, Dict, Tuple, Union

#: Fields every server frame of a type must carry (protocol v1).
REQUIRED = {
    "started": ("session", "task", "reference"), "score": ("session", "seq", "t", "score", "reward"),
    "signal": ("session", "seq", "t", "kind", "severity"), "final": ("session", "score", "tier", "steps"),
    "resumed": ("session", "last"), "error": ("code", "message"), "pong": (),
}

#: The type of each field the client keys its state on or counts with, wherever it appears: a session id of another
#: type (a list is unhashable) raised inside the reader, so the call waiting for that frame waited out its timeout
#: (forever without one), and a seq or ``t`` of another type left a step answered without its score (T101).
TYPES = {"session": (str,), "seq": (int,), "t": (int,), "last": (int,), "code": (str,), "message": (str,),
         "kind": (str,), "severity": (str,)}


def parse_frame(text: Union[str, bytes]) -> Tuple[bool, Any]:
    """``(True, frame)`` for a valid server frame, ``(False, why)`` otherwise. Additions are part of the
    protocol: a frame of a type this client does not know is valid (the client ignores it), and so are
    fields and enum values (a new signal kind, error code...) it does not know."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    try:
        frame: Dict[str, Any] = json.loads(text)
    except json.JSONDecodeError as e:
        return False, f"invalid JSON ({e})"
    except (ValueError, RecursionError) as e:
        # JSON this interpreter will not read (nested past its recursion limit, an integer past its digit limit):
        # raised inside the reader, the call this frame answered waited out its timeout (T101).
        return False, f"JSON this client cannot read ({str(e).split(';')[0][:100]})"
    kind = frame.get("type") if isinstance(frame, dict) else None
    if not isinstance(kind, str):
        return False, f"type {kind!r}: a frame is a JSON object with a string type"
    if kind not in REQUIRED:
        return True, frame
    missing = [k for k in REQUIRED[kind] if k not in frame]
    if missing:
        return False, f"type {kind!r}: missing {', '.join(missing)}"
    for k in REQUIRED[kind] + (("session", "seq") if kind == "error" else ()):
        if k in TYPES and k in frame and (not isinstance(frame[k], TYPES[k]) or isinstance(frame[k], bool)):
            return False, f"type {kind!r}: {k} {_short(frame[k])} is not of type {TYPES[k][0].__name__}"
    return True, frame


def _short(value: Any) -> str:
    """A field's value as the error shows it, cut short (``reprlib``): a hostile server's value may be megabytes."""
    return reprlib.repr(value)
