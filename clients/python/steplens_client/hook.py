"""A step hook for synchronous agent loops: hand it each action/observation as the agent
produces it, get back the score and whether to stop."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Union

from .session import Frame
from .stream import Reconnect
from .sync import SyncClient, SyncSession

#: The tool name a steplens step gets by default, per action kind.
DEFAULT_TOOLS = {"shell": "bash", "code": "ipython", "view": "str_replace_editor", "edit": "str_replace_editor",
                 "search": "grep", "list": "ls", "think": "think", "finish": "finish", "message": "message", "none": "none"}


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
    object (``{"kind": "edit", "op": "str_replace", "path": ...}``)."""
    act = {"kind": "shell", "command": action} if isinstance(action, str) else dict(action)
    if "kind" not in act:
        raise ValueError(f"action: expected a command string or an object with 'kind' (got {action!r})")
    step: Dict[str, Any] = {"tool": tool or DEFAULT_TOOLS.get(act["kind"], act["kind"]), "action": act}
    if args is None and act["kind"] == "shell":
        args = {"command": act["command"]}
    for key, value in (("args", args), ("observation", observation), ("exitCode", exit_code), ("thought", thought), ("tokens", tokens)):
        if value is not None:
            step[key] = dict(value) if isinstance(value, Mapping) else value
    step.update(extra)
    return step


class StepHook:
    """One agent run scored live. Use :meth:`step` with steplens steps (action + observation) or
    :meth:`event` with raw events of another format (``format="mini-swe-agent"``: each message
    appended to the agent's history). Check ``decision.stop`` after every call.

    >>> with StepHook("http://127.0.0.1:8787", task="django__django-11099", policy={"blindRetry": {"stop": 2}}) as hook:
    ...     d = hook.step("pytest tests/", observation=out, exit_code=1)
    ...     if d.stop: ...
    """

    def __init__(self, url: str, task: str, *, format: Optional[str] = None, policy: Optional[Mapping[str, Any]] = None,
                 agent: Optional[str] = None, model: Optional[str] = None, session: Optional[str] = None, token: Optional[str] = None,
                 stop_on_warn: bool = False, reconnect: Union[bool, Reconnect] = True, timeout: float = 120.0,
                 client: Optional[SyncClient] = None, reward: str = "score", gamma: float = 1.0) -> None:
        if reward not in ("score", "forecast"):
            raise ValueError(f"reward: expected 'score' or 'forecast' (got {reward!r})")
        self.reward_kind, self.gamma = reward, gamma
        #: The potential of the state reached so far (pPass after the last step; 0 before any).
        self.potential = 0.0
        #: With ``reward="forecast"``, set by :meth:`finish`: the correction for the last step, whose
        #: transition ends in the terminal state (potential 0), -gamma * pPass_T, so that with gamma = 1
        #: the shaping of the whole episode sums to 0 (as :func:`forecast_shaping` with ``terminal``).
        self.terminal_reward: Optional[float] = None
        self._own_client = client is None
        self.client = client if client is not None else SyncClient(url, token=token, reconnect=reconnect, timeout=timeout)
        self.stop_on_warn = stop_on_warn
        self.stopped = False
        self.reason: Optional[str] = None
        self.final: Optional[Dict[str, Any]] = None
        try:
            kwargs: Dict[str, Any] = {k: v for k, v in (("format", format), ("policy", dict(policy) if policy else None),
                                                         ("agent", agent), ("model", model), ("session", session)) if v is not None}
            self.session: SyncSession = self.client.start(task, **kwargs)
        except BaseException:
            if self._own_client:
                self.client.close()
            raise

    @property
    def scores(self) -> List[Frame]:
        return self.session.scores

    @property
    def signals(self) -> List[Frame]:
        return self.session.signals

    def step(self, action: Union[str, Mapping[str, Any]], observation: Optional[str] = None, **kwargs: Any) -> Decision:
        """Scores one steplens step (see :func:`make_step` for the arguments)."""
        return self.event(make_step(action, observation, **kwargs))

    def event(self, payload: Any) -> Decision:
        """Scores one raw step payload in the session's format. A ``timeout`` (naming the session and seq)
        leaves the step in flight, scored by the server: call the same ``step``/``event`` again to get its
        decision; it is not scored twice."""
        seq, frames = self.session.send(payload)
        signals = self.session.signals_of(seq)
        for s in signals:
            if not self.stopped and (s["severity"] == "stop" or self.stop_on_warn):
                self.stopped = True
                self.reason = f"{s['kind']} ({s['severity']}) at step {s['t']}: {s['message']}"
        last = self.session.score
        if self.reward_kind == "forecast":
            from .rewards import p_pass
            reward = 0.0
            for f in frames:
                v = p_pass(f)
                reward += self.gamma * v - self.potential
                self.potential = v
        else:
            reward = sum(f["reward"] for f in frames)
        return Decision(seq=seq, frames=frames, signals=signals, stop=self.stopped, reason=self.reason,
                        score=last["score"]["total"] if last else None, reward=reward,
                        tier=last["tier"] if last else None, vector=dict(last["score"]) if last else {},
                        p_pass=last.get("pPass") if last else None)

    def finish(self, passed: Optional[bool] = None) -> Dict[str, Any]:
        """Reports the outcome (when known), ends the session and returns the ``final`` report."""
        if self.final is None:
            if passed is not None:
                self.session.outcome(passed)
            self.final = self.session.end()
            if self.reward_kind == "forecast":
                self.terminal_reward = -self.gamma * self.potential
        return self.final

    def close(self) -> None:
        """Ends the session if still open, then closes the connection this hook opened."""
        try:
            if self.final is None and not self.session.done and not self.client.client.closed:
                self.finish()
        finally:
            if self._own_client:
                self.client.close()

    def __enter__(self) -> "StepHook":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
