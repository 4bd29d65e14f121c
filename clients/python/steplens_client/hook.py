"""A step hook for synchronous agent loops: hand it each action/observation as the agent
produces it, get back the score and whether to stop."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Union

from .errors import SteplensError
from .session import Frame
from .steps import DEFAULT_TOOLS, Decision, make_step
from .stream import Reconnect
from .sync import SyncClient, SyncSession

__all__ = ["DEFAULT_TOOLS", "Decision", "StepHook", "make_step"]


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
            raise SteplensError("bad_input", f"reward: expected 'score' or 'forecast' (got {reward!r})")
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
