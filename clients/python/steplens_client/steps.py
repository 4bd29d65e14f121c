"""Building steplens steps (proto/step.schema.json) from an agent's action and observation, and what the server said
about one (:class:`Decision`). Standard library only: :func:`make_step` works without the ``websockets`` package."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from .errors import SteplensError
from .session_parts import Frame

#: The tool name a steplens step gets by default, per action kind.
DEFAULT_TOOLS = {"shell": "bash", "code": "ipython", "view": "str_replace_editor", "edit": "str_replace_editor",
                 "search": "grep", "list": "ls", "think": "think", "finish": "finish", "message": "message", "none": "none"}

#: Each action kind of protocol v1 and the string fields it needs (proto/step.schema.json, ``action``).
ACTION_FIELDS: Dict[str, tuple] = {"shell": ("command",), "code": ("language", "code"), "view": ("path",), "edit": ("op", "path"),
                                   "search": (), "list": (), "think": (), "finish": (), "message": (), "none": (), "other": ("name",)}


@dataclass
class Decision:
    """What the server said about one step message."""
    seq: int
    #: The score frames of this message (``[]`` when it completed no step).
    frames: List[Frame]
    #: The signal frames that fired on it.
    signals: List[Frame]
    #: True when a ``stop`` signal fired (or a ``warn`` one, with ``stop_on_warn``), now or before.
    stop: bool
    #: Why to stop: the stop signal's kind and message.
    reason: Optional[str] = None
    #: The trajectory's composite score so far (0-100), if any step was scored.
    score: Optional[float] = None
    #: This message's process reward (the sum over the steps it completed; with ``reward="forecast"``
    #: the potential-based shaping gamma * pPass_t - pPass_(t-1) of those steps).
    reward: float = 0.0
    #: The forecast P(pass) after the last step, when the server has a forecast model.
    p_pass: Optional[float] = None
    tier: Optional[str] = None
    vector: Dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.stop


def make_step(action: Union[str, Mapping[str, Any]], observation: Optional[str] = None, *, exit_code: Optional[int] = None,
              tool: Optional[str] = None, args: Optional[Mapping[str, Any]] = None, thought: Optional[str] = None,
              tokens: Optional[Mapping[str, float]] = None, **extra: Any) -> Dict[str, Any]:
    """A steplens step (proto/step.schema.json): ``action`` is a shell command string or an action
    object (``{"kind": "edit", "op": "str_replace", "path": ...}``). An argument the step cannot hold
    raises :class:`SteplensError` ``bad_input`` naming it."""
    act = _action(action)
    if tool is not None and (not isinstance(tool, str) or tool == ""):
        raise _bad("tool", "a non-empty string", tool)
    step: Dict[str, Any] = {"tool": tool or DEFAULT_TOOLS.get(act["kind"], act["kind"]), "action": act}
    if args is None and act["kind"] == "shell":
        args = {"command": act["command"]}
    # (name in the step, argument name, value, what it must be)
    fields: List[Tuple[str, str, Any, str]] = [("args", "args", args, "mapping"), ("observation", "observation", observation, "string"),
                                              ("exitCode", "exit_code", exit_code, "integer"), ("thought", "thought", thought, "string"),
                                              ("tokens", "tokens", tokens, "mapping")]
    for key, name, value, kind in fields:
        if value is None:
            continue
        if kind == "string" and not isinstance(value, str):
            raise _bad(name, "a string", value)
        if kind == "integer" and (isinstance(value, bool) or not isinstance(value, int)):
            raise _bad(name, "an integer", value)
        if kind == "mapping" and not isinstance(value, Mapping):
            raise _bad(name, "a mapping", value)
        step[key] = dict(value) if isinstance(value, Mapping) else value
    step.update(extra)
    return step


def _action(action: Any) -> Dict[str, Any]:
    kinds = ", ".join(ACTION_FIELDS)
    if isinstance(action, str):
        return {"kind": "shell", "command": action}
    if not isinstance(action, Mapping):
        raise _bad("action", "a shell command string or an action object with 'kind'", action)
    act = dict(action)
    if "kind" not in act:
        raise SteplensError("bad_input", f"action: the action object has no 'kind' (one of {kinds}; got {_show(action)})")
    kind = act["kind"]
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise _bad("action.kind", f"one of {kinds}", kind)
    for name in ACTION_FIELDS[kind]:
        if not isinstance(act.get(name), str):
            what = "missing" if name not in act else f"got {_show(act[name])}"
            raise SteplensError("bad_input", f"action.{name}: a {kind!r} action needs a string {name} ({what})")
    return act


def _bad(name: str, expected: str, value: Any) -> SteplensError:
    return SteplensError("bad_input", f"{name}: expected {expected} (got {_show(value)})")


def _show(value: Any) -> str:
    """A value as an error message shows it: its repr, cut at 80 characters, with its type when that is no built-in literal."""
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return text if isinstance(value, (str, bytes, int, float, dict, list, tuple, type(None))) else f"{type(value).__name__} {text}"
