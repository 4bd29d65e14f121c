"""Python client of steplens, the online process reward model server for software-engineering agents.

- :class:`HttpClient` - ``POST /v1/score``, ``/v1/score/batch``, OpenRLHF's ``/get_reward``, ``/v1/rank``, sessions, references.
- :func:`connect` / :class:`StreamClient` / :class:`Session` - asyncio WebSocket streaming with auto-resume.
- :class:`SyncClient` - the same, blocking (for synchronous agent loops).
- :class:`StepHook` - score each action/observation as an agent produces it; ``decision.stop`` says when to stop.
- :class:`TrlReward`, :class:`VerlReward`, :func:`compute_score`, :func:`step_rewards` - trainer adapters.

HTTP (``HttpClient``, the reward functions but ``step_rewards``, ``make_step``, ``load``, ``events``) needs only the
standard library; streaming needs the ``websockets`` package. So every name is imported on first use (PEP 562), and
without websockets a streaming name (``connect``, ``SyncClient``, ``StepHook``, ...) is a stand-in that raises an
ImportError saying to install it when it is called: ``from steplens_client import *`` and ``from steplens_client
import HttpClient`` work without websockets.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Dict, List

from .errors import SteplensError

if TYPE_CHECKING:  # what type checkers and IDEs see: the same names, imported eagerly
    from .hook import StepHook
    from .http import HttpClient, score_request
    from .rewards import TrlReward, VerlReward, compute_score, compute_score_batch, forecast_shaping, parse_label, step_rewards, step_rewards_many
    from .session import Session
    from .steps import Decision, make_step
    from .stream import Reconnect, StreamClient, connect
    from .sync import SyncClient, SyncSession
    from .trajectory import detect_format, events, load, parse_text

__version__ = "0.1.0"

#: Each public name and the module that holds it.
_MODULES: Dict[str, str] = {
    "StepHook": "hook",
    **dict.fromkeys(("Decision", "make_step"), "steps"),
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
    try:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
    except ImportError as e:
        if not (e.name or "").partition(".")[0] == "websockets":
            raise
        return _needs_websockets(name, e)  # not kept: websockets installed later in this process is then used
    globals()[name] = value  # once: later lookups do not come here
    return value


class _NeedsWebsockets(type):
    """The type of a streaming name's stand-in when ``websockets`` cannot be imported: calling it (``connect(url)``,
    ``SyncClient(url)``, ``StepHook(...)``) or reading one of its attributes raises the ImportError that says to
    install it. It is a class, so ``isinstance(x, SyncClient)`` is False rather than an error."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        raise cls._error()

    def __getattr__(cls, attr: str) -> Any:
        if attr.startswith("__"):  # what introspection (help, inspect, typing) asks for: no such attribute
            raise AttributeError(attr)
        raise cls._error()

    def __repr__(cls) -> str:
        return f"<steplens_client.{cls.__name__}: needs the websockets package>"


def _needs_websockets(name: str, error: ImportError) -> Any:
    def make_error() -> ImportError:
        why = str(error)
        return ModuleNotFoundError(f"steplens_client.{name}: {why[len('steplens_client: '):] if why.startswith('steplens_client: ') else why}",
                                   name=error.name)

    return _NeedsWebsockets(name, (), {"_error": staticmethod(make_error), "__module__": __name__, "__doc__": str(error)})


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
