"""Trajectory logs on the client side: reading log text, detecting its format, and splitting it
into the raw events a live agent would stream (the same split as the server's
``FormatParser.events``), so a recorded run can be replayed step by step."""

from __future__ import annotations

import gzip
import io
import json
import zlib
from pathlib import Path
from typing import Any, List, Optional, Union

from .errors import SteplensError

FORMATS = ("steplens", "openhands", "swe-agent", "mini-swe-agent", "atif")


def parse_text(text: str, source: str = "trajectory") -> Any:
    """One JSON document, or JSON Lines (a list of records). Raises ``bad_input`` naming the
    source and the line when neither parses."""
    body = text.lstrip("\ufeff")
    if body.strip() == "":
        raise SteplensError("bad_input", f"{source}: the input is empty")
    try:
        return json.loads(body)
    except json.JSONDecodeError as whole:
        records = []
        lines = [(i + 1, line) for i, line in enumerate(body.split("\n")) if line.strip() != ""]
        if len(lines) < 2:
            raise SteplensError("bad_input", f"{source}: invalid JSON: {whole}") from whole
        for number, line in lines:
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise SteplensError("bad_input", f"{source}: line {number}: invalid JSON: {e}") from e
        return records


#: Bytes a gzipped file may expand to (the CLI's default input limit, STEPLENS_MAX_INPUT_BYTES: 256 MiB).
MAX_GZIP_BYTES = 256 * 1024 * 1024


def load(path: Union[str, Path]) -> Any:
    """Reads a trajectory file (JSON document or JSON Lines), gzipped or not, as the CLI reads it. A file
    that is not UTF-8 text, or broken gzip data, raises ``bad_input`` naming the file."""
    p = Path(path)
    data = p.read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as f:
                data = f.read(MAX_GZIP_BYTES + 1)
        except (OSError, EOFError, zlib.error) as e:
            raise SteplensError("bad_input", f"{p}: truncated or broken gzip data ({e})") from None
        if len(data) > MAX_GZIP_BYTES:
            raise SteplensError("bad_input", f"{p}: its gzip data expands past {MAX_GZIP_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SteplensError("bad_input", f"{p}: binary data, not a text log") from None
    return parse_text(text, str(p))


def _is_openhands_event(e: Any) -> bool:
    return isinstance(e, dict) and "role" not in e and (isinstance(e.get("action"), str) or isinstance(e.get("observation"), str))


def _is_openhands_instance(v: Any) -> bool:
    h = v.get("history") if isinstance(v, dict) else None
    return isinstance(h, list) and "trajectory" not in v and (len(h) == 0 or any(_is_openhands_event(e) for e in h))


def _looks_like_step(v: Any) -> bool:
    return isinstance(v, dict) and isinstance(v.get("action"), dict) and isinstance(v["action"].get("kind"), str)


def _is_traj(doc: Any) -> bool:
    # As the server's (src/formats/swe-agent.ts): a top-level ``messages`` is allowed beside SWE-agent entries
    # (``action`` strings): CodeR, a SWE-agent 0.x variant, keeps each role's conversation there as arrays.
    if not isinstance(doc, dict) or not isinstance(doc.get("trajectory"), list) or not ("history" in doc or "info" in doc):
        return False
    return "messages" not in doc or any(isinstance(e, dict) and isinstance(e.get("action"), str) for e in doc["trajectory"])


def _is_mini(doc: Any) -> bool:
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        return False
    fmt = doc.get("trajectory_format")
    if isinstance(fmt, str):
        return fmt.startswith("mini-swe-agent")
    info = doc.get("info")
    return isinstance(info, dict) and ("mini_version" in info or "submission" in info)


def detect_format(doc: Any) -> Optional[str]:
    """The steplens format name of a parsed log (the server's detection order), or None."""
    if isinstance(doc, list) and (len(doc) == 0 or any(_looks_like_step(r) for r in doc[:10])) or _looks_like_step(doc):
        return "steplens"
    if _is_openhands_instance(doc) or (isinstance(doc, dict) and isinstance(doc.get("fncall_messages"), list)):
        return "openhands"
    if isinstance(doc, list) and doc and (_is_openhands_instance(doc[0]) or any(_is_openhands_event(e) for e in doc)):
        return "openhands"
    if _is_traj(doc):
        return "swe-agent"
    if _is_mini(doc):
        return "mini-swe-agent"
    if isinstance(doc, dict) and isinstance(doc.get("steps"), list) and isinstance(doc.get("schema_version"), str):
        return "atif"
    return None


def _json_value(v: Any) -> Any:
    if isinstance(v, str) and v.strip()[:1] in ("{", "["):
        try:
            return json.loads(v)
        except json.JSONDecodeError:
            return v
    return v


def _swe_agent_events(doc: dict) -> List[Any]:
    assistants = [m for m in doc.get("history") or [] if isinstance(m, dict) and m.get("role") == "assistant" and not m.get("is_demo")]
    j = 0
    events = []
    for e in doc["trajectory"]:
        calls = None
        if isinstance(e, dict) and isinstance(e.get("action"), str) and e["action"] != "":
            for k in range(j, len(assistants)):
                if assistants[k].get("action") == e["action"]:
                    j = k + 1
                    value = _json_value(assistants[k].get("tool_calls"))
                    calls = value if isinstance(value, list) and value else None
                    break
        events.append({**e, "tool_calls": calls} if calls is not None else e)
    return events


#: Instance ids a refusal names at most (the server's MAX_IDS_NAMED).
_MAX_IDS_NAMED = 10


def _openhands_instance(doc: List[Any], task: Optional[str]) -> Any:
    """The instance of an OpenHands ``output.jsonl`` (a list of instances) that is ``task``, as the server chooses it
    for ``POST /v1/score``: the only one, else the one whose ``instance_id`` is the task; else ``bad_input`` naming
    the instances (streaming the first one whatever the task scored another run than the one asked for)."""
    if len(doc) == 1:
        return doc[0]
    for inst in doc:
        if isinstance(inst, dict) and task is not None and inst.get("instance_id") == task:
            return inst
    ids = [inst["instance_id"] if isinstance(inst, dict) and isinstance(inst.get("instance_id"), str) else f"#{i + 1}"
           for i, inst in enumerate(doc)]
    named = ", ".join(ids[:_MAX_IDS_NAMED]) + (f", ... ({len(ids)} in all)" if len(ids) > _MAX_IDS_NAMED else "")
    why = "name the task to score" if task is None else f"none is task {task}"
    raise SteplensError("bad_input", f"a log of {len(doc)} instances ({named}); {why}, or send that instance alone")


def _openhands_events(doc: Any, task: Optional[str] = None) -> List[Any]:
    if isinstance(doc, dict) and isinstance(doc.get("fncall_messages"), list):
        events = list(doc["fncall_messages"])
        choices = (doc.get("fncall_response") or {}).get("choices") if isinstance(doc.get("fncall_response"), dict) else None
        first = choices[0] if isinstance(choices, list) and choices else None
        if isinstance(first, dict) and isinstance(first.get("message"), dict):
            events.append({**first["message"], "role": "assistant"})
        return events
    if isinstance(doc, list) and doc and _is_openhands_instance(doc[0]):
        doc = _openhands_instance(doc, task)
    if isinstance(doc, list):
        return list(doc)
    return list(doc.get("history") or []) if isinstance(doc, dict) else []


def describe(doc: Any) -> str:
    """A short description of a document for error messages, as the server words it (``describeDocument``): its
    type, or an object's first 8 keys; an array by its first elements, 4 deep at most."""
    prefix, value = "", doc
    depth = 0
    while isinstance(value, list) and value:
        if depth == 4:
            return f"{prefix}an array ..."
        prefix += "an array whose first element is "
        value, depth = value[0], depth + 1
    if isinstance(value, list):
        return f"{prefix}an empty array"
    if isinstance(value, dict):
        keys = list(value)
        return prefix + ("an empty JSON object" if not keys else f"a JSON object with keys {', '.join(keys[:8])}{', ...' if len(keys) > 8 else ''}")
    kind = {bool: "a boolean", int: "a number", float: "a number", str: "a string", type(None): "null"}.get(type(value), type(value).__name__)
    return prefix + kind


def events(doc: Any, fmt: str = "auto", task: Optional[str] = None) -> List[Any]:
    """The raw events of a parsed log in ``fmt`` (``auto``: detected): what a live client of that
    format sends as ``step`` payloads. Raises ``bad_input`` when the format cannot be told. An OpenHands
    ``output.jsonl`` of several instances gives the events of the instance whose ``instance_id`` is ``task``
    (as ``POST /v1/score`` and ``steplens replay --instance`` choose it); without one, ``bad_input`` names them."""
    name = detect_format(doc) if fmt == "auto" else fmt
    if name is None:  # the server's code and message (src/formats/registry.ts), as POST /v1/score refuses the same log
        raise SteplensError("unknown_format", f"could not detect the log format (tried {', '.join(FORMATS)}): the input is {describe(doc)}")
    if name not in FORMATS:
        raise SteplensError("bad_input", f"unknown format {fmt!r} (expected auto, {', '.join(FORMATS)})")
    if name == "steplens":
        return list(doc) if isinstance(doc, list) else [doc]
    if name == "openhands":
        return _openhands_events(doc, task)
    if not isinstance(doc, dict):
        raise SteplensError("bad_input", f"not a {name} log: expected a JSON object, got {type(doc).__name__}")
    if name == "swe-agent":
        return _swe_agent_events(doc)
    key = "messages" if name == "mini-swe-agent" else "steps"
    return list(doc.get(key) or [])


def split(doc: Any, fmt: str = "auto", task: Optional[str] = None) -> "tuple[str, List[Any]]":
    """``(format, events)``: the detected (or given) format name and the log's raw events (of instance ``task``)."""
    name = detect_format(doc) if fmt == "auto" else fmt
    return (name or "auto"), events(doc, fmt, task)
