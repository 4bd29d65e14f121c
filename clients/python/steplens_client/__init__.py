"""Python client of steplens, the online process reward model server for software-engineering agents.

- :class:`HttpClient` - ``POST /v1/score``, ``/v1/score/batch``, OpenRLHF's ``/get_reward``, ``/v1/rank``, sessions, references.
- :func:`connect` / :class:`StreamClient` / :class:`Session` - asyncio WebSocket streaming with auto-resume.
- :class:`SyncClient` - the same, blocking (for synchronous agent loops).
- :class:`StepHook` - score each action/observation as an agent produces it; ``decision.stop`` says when to stop.
- :class:`TrlReward`, :class:`VerlReward`, :func:`compute_score`, :func:`step_rewards` - trainer adapters.
"""

from .errors import SteplensError
from .hook import Decision, StepHook, make_step
from .http import HttpClient, score_request
from .rewards import TrlReward, VerlReward, compute_score, compute_score_batch, forecast_shaping, parse_label, step_rewards, step_rewards_many
from .session import Session
from .stream import Reconnect, StreamClient, connect
from .sync import SyncClient, SyncSession
from .trajectory import detect_format, events, load, parse_text

__version__ = "0.1.0"

__all__ = [
    "Decision", "HttpClient", "Reconnect", "Session", "SteplensError", "StepHook", "StreamClient", "SyncClient", "SyncSession",
    "TrlReward", "VerlReward", "compute_score", "compute_score_batch", "connect", "detect_format", "events", "load",
    "forecast_shaping", "make_step", "parse_label", "parse_text", "score_request", "step_rewards", "step_rewards_many",
]
