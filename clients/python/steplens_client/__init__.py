"""Python client of steplens, the online process reward model server for software-engineering agents.

- :class:`HttpClient` - ``POST /v1/score``, ``/v1/score/batch``, OpenRLHF's ``/get_reward``, ``/v1/rank``, sessions, references.
- :func:`connect` / :class:`StreamClient` / :class:`Session` - asyncio WebSocket streaming with auto-resume.
- :class:`SyncClient` - the same, blocking (for synchronous agent loops).
- :class:`StepHook` - score each action/observation as an agent produces it; ``decision.stop`` says when to stop.
- :class:`TrlReward`, :class:`VerlReward`, :func:`compute_score`, :func:`step_rewards` - trainer adapters.

HTTP (``HttpClient``, the reward functions but ``step_rewards``) needs only the standard library; streaming needs
the ``websockets`` package. So every name is imported on first use (PEP 562): ``from steplens_client import
HttpClient`` works without websockets, and a streaming name raises an ImportError that says to install it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Dict, List

from .errors import SteplensError

if TYPE_CHECKING:  # what type checkers and IDEs see: the same names, imported eagerly
    from .hook import Decision, StepHook, make_step
    from .http import HttpClient, score_request
    from .rewards import TrlReward, VerlReward, compute_score, compute_score_batch, forecast_shaping, parse_label, step_rewards, step_rewards_many
    from .session import Session
    from .stream import Reconnect, StreamClient, connect
    from .sync import SyncClient, SyncSession
    from .trajectory import detect_format, events, load, parse_text

__version__ = "0.1.0"

#: Each public name and the module that holds it.
_MODULES: Dict[str, str] = {
    **dict.fromkeys(("Decision", "StepHook", "make_step"), "hook"),
    **dict.fromkeys(("HttpClient", "score_request"), "http"),
    **dict.fromkeys(("TrlReward", "VerlReward", "compute_score", "compute_score_batch", "forecast_shaping", "parse_label",
                     "step_rewards", "step_rewards_many"), "rewards"),
    "Session": "session",
    **dict.fromkeys(("Reconnect", "StreamClient", "connect"), "stream"),
    **dict.fromkeys(("SyncClient", "SyncSession"), "sync"),
    **dict.fromkeys(("detect_format", "events", "load", "parse_text"), "trajectory"),
}

__all__ = [
    "Decision", "HttpClient", "Reconnect", "Session", "SteplensError", "StepHook", "StreamClient", "SyncClient", "SyncSession",
    "TrlReward", "VerlReward", "compute_score", "compute_score_batch", "connect", "detect_format", "events", "load",
    "forecast_shaping", "make_step", "parse_label", "parse_text", "score_request", "step_rewards", "step_rewards_many",
]


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # once: later lookups do not come here
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
