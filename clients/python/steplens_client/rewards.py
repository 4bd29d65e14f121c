"""Reward-function adapters with the signatures RL trainers call: TRL's
``reward_funcs(prompts, completions, **kwargs) -> list[float]`` and veRL's
``compute_score(data_source, solution_str, ground_truth, extra_info)``. A completion / solution
is a trajectory log text (JSON document or JSON Lines, any format steplens reads); the task id
comes from a dataset column (TRL) or the ground truth (veRL), optionally as JSON
``{"task": ..., "passed": ...}``. The reward is the steplens composite score times ``scale``
(default 1/100, so rewards lie in [0, 1] like ``/get_reward``'s), or with ``per_step`` the
streamed per-step process rewards.

``reward="forecast"`` (needs a server started with ``--forecast``) uses the learned outcome
forecast pPass = P(pass | steps so far) instead: a whole trajectory gets its final pPass, and per
step the potential-based shaping F_t = gamma * V(s_t) - V(s_(t-1)) with V = pPass, V(start) = 0
and V(terminal) = 0 (Ng, Harada & Russell 1999). Shaping of this form leaves the optimal policy
of the task's own reward (the test outcome) unchanged; with gamma = 1 it sums to 0 over a finished
trajectory, so it moves credit between steps without adding any."""

from __future__ import annotations

import asyncio
import json
import math
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .errors import SteplensError
from .http import HttpClient, score_request
from .sync import SyncClient
from .trajectory import detect_format, parse_text
from .trajectory import events as split_events

DEFAULT_URL = "http://127.0.0.1:8787"


def parse_label(label: Any) -> Tuple[str, Optional[bool]]:
    """``(task, passed)`` from a label: a task id, or JSON text/object ``{"task": ..., "passed": ...}``."""
    if isinstance(label, str) and label.strip().startswith("{"):
        try:
            label = json.loads(label)
        except json.JSONDecodeError as e:
            raise SteplensError("bad_input", f"label {label[:80]!r}: invalid JSON: {e}") from None
    if isinstance(label, Mapping):
        task, passed = label.get("task"), label.get("passed")
        if not isinstance(task, str) or not task:
            raise SteplensError("bad_input", f"label {dict(label)!r}: expected a 'task' string")
        return task, passed if isinstance(passed, bool) else None
    if isinstance(label, str) and label:
        return label, None
    raise SteplensError("bad_input", f"label: expected a task id or {{\"task\": ...}} (got {label!r})")


def trajectory_of(completion: Any, source: str = "completion") -> Any:
    """The parsed trajectory of a completion: its text (JSON or JSON Lines), the concatenated
    ``content`` of a conversational completion (a list of chat messages), or an already parsed log."""
    if isinstance(completion, str):
        return parse_text(completion, source)
    if isinstance(completion, list) and completion and all(isinstance(m, Mapping) and "content" in m for m in completion):
        return parse_text("".join(str(m["content"]) for m in completion), source)
    if isinstance(completion, (dict, list)):
        return completion
    raise SteplensError("bad_input", f"{source}: expected trajectory text, got {type(completion).__name__}")


REWARDS = ("score", "forecast")


def _check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise SteplensError("bad_input", f"reward: expected one of {', '.join(REWARDS)} (got {reward!r})")
    return reward


def p_pass(frame: Mapping[str, Any]) -> float:
    """The forecast P(pass) of a ``score`` frame or report; a clear error when the server has no forecast model."""
    value = frame.get("pPass")
    if not isinstance(value, (int, float)):
        raise SteplensError("bad_input", "reward='forecast': the server sent no pPass (start it with `steplens serve --forecast FORECAST.json`)")
    return float(value)


def forecast_shaping(values: Sequence[float], *, gamma: float = 1.0, terminal: bool = True) -> List[float]:
    """Potential-based shaping rewards from the pPass after each step: F_t = gamma * V_t - V_(t-1),
    V before the first step = 0; with ``terminal`` the last transition ends in the terminal state,
    whose potential is 0 (F_last = -V_(last-1)), so with gamma = 1 the rewards sum to 0."""
    out: List[float] = []
    prev = 0.0
    for i, v in enumerate(values):
        nxt = 0.0 if terminal and i == len(values) - 1 else float(v)
        out.append(gamma * nxt - prev)
        prev = nxt
    return out


def step_rewards(url: str, task: str, trajectory: Any, *, format: str = "auto", policy: Optional[Mapping[str, Any]] = None,
                 passed: Optional[bool] = None, token: Optional[str] = None, timeout: float = 120.0,
                 reward: str = "score", gamma: float = 1.0) -> List[float]:
    """The per-step process rewards of a trajectory (one per step, as streamed ``score`` frames carry them;
    with ``reward="forecast"`` the potential-based shaping of their pPass, see :func:`forecast_shaping`)."""
    return step_rewards_many(url, [{"task": task, "trajectory": trajectory, "format": format, "policy": policy, "passed": passed}],
                             token=token, timeout=timeout, reward=reward, gamma=gamma)[0]


def step_rewards_many(url: str, items: Sequence[Mapping[str, Any]], *, token: Optional[str] = None,
                      timeout: float = 120.0, reward: str = "score", gamma: float = 1.0) -> List[List[float]]:
    """Per-step rewards of many trajectories (``{task, trajectory, format?, policy?, passed?}``),
    streamed as concurrent sessions over one connection."""
    _check_reward(reward)
    with SyncClient(url, token=token, timeout=timeout) as client:
        frames = client.call(_stream_all(client, items))
    if reward == "score":
        return [[f["reward"] for f in fs] for fs in frames]
    return [forecast_shaping([p_pass(f) for f in fs], gamma=gamma) for fs in frames]


async def _stream_all(client: SyncClient, items: Sequence[Mapping[str, Any]]) -> List[List[Any]]:
    async def one(item: Mapping[str, Any]) -> List[Any]:
        doc = trajectory_of(item["trajectory"], f"trajectory of {item['task']}")
        fmt = item.get("format") or "auto"
        payloads = split_events(doc, fmt)
        name = detect_format(doc) if fmt == "auto" else fmt
        kwargs = {k: v for k, v in (("format", name), ("policy", item.get("policy"))) if v is not None}
        session = await client.client.start(item["task"], **kwargs)
        await asyncio.gather(*(session.step(p) for p in payloads))
        if item.get("passed") is not None:
            await session.outcome(bool(item["passed"]))
        await session.end()
        return list(session.scores)
    return list(await asyncio.gather(*(one(i) for i in items)))


class _Scorer:
    def __init__(self, url: Optional[str], token: Optional[str], format: str, scale: float, on_error: Union[str, float],
                 policy: Optional[Mapping[str, Any]], timeout: float, reward: str = "score", gamma: float = 1.0) -> None:
        self.reward, self.gamma = _check_reward(reward), gamma
        self.url = url or os.environ.get("STEPLENS_URL", DEFAULT_URL)
        self.token = token if token is not None else os.environ.get("STEPLENS_TOKEN")
        self.http = HttpClient(self.url, token=self.token, timeout=timeout)
        self.format, self.scale, self.on_error, self.policy, self.timeout = format, scale, on_error, policy, timeout

    def _items(self, trajectories: Sequence[Any], labels: Sequence[Tuple[str, Optional[bool]]]) -> List[Union[Dict[str, Any], SteplensError]]:
        """One score request per completion, or the error that it is not a log (a model writing garbage is the
        common failure in RL: it gets ``on_error`` like a server refusal, and the others are still scored)."""
        out: List[Union[Dict[str, Any], SteplensError]] = []
        fmt = None if self.format == "auto" else self.format
        for i, (traj, (task, passed)) in enumerate(zip(trajectories, labels)):
            try:
                out.append(score_request(task, trajectory_of(traj, f"completion {i} ({task})"), format=fmt, passed=passed, policy=self.policy))
            except SteplensError as error:
                out.append(error)
        return out

    def _value(self, result: Any) -> float:
        if isinstance(result, SteplensError):
            if self.on_error == "raise":
                raise result
            return math.nan if self.on_error == "nan" else float(self.on_error)
        if self.reward == "forecast":
            return p_pass(result)
        return float(result["score"]["total"]) * self.scale

    def scores(self, trajectories: Sequence[Any], labels: Sequence[Tuple[str, Optional[bool]]]) -> List[float]:
        """Composite scores of many trajectories in one ``/v1/score/batch`` call (completions that are not a log
        are not sent: they get ``on_error``)."""
        items = self._items(trajectories, labels)
        if self.on_error == "raise":
            for item in items:
                if isinstance(item, SteplensError):
                    raise item
        sent = [i for i, item in enumerate(items) if not isinstance(item, SteplensError)]
        results: List[Any] = list(items)
        if sent:
            for i, r in zip(sent, self.http.score_batch([items[i] for i in sent])):
                results[i] = r
        return [self._value(r) for r in results]


class TrlReward(_Scorer):
    """A TRL reward function: ``GRPOTrainer(reward_funcs=[TrlReward(url)], ...)``. The task id of each
    completion is the dataset column ``task_key`` (passed by TRL as a keyword list); a
    ``passed_key`` column, if given, is the test outcome. The whole batch is one HTTP call.
    ``on_error``: ``"raise"`` (default), ``"nan"``, or a number to use instead. ``reward="forecast"``:
    each completion's final forecast P(pass) (server with ``--forecast``) instead of its score."""

    def __init__(self, url: Optional[str] = None, *, task_key: str = "task", passed_key: Optional[str] = None,
                 token: Optional[str] = None, format: str = "auto", scale: float = 0.01, on_error: Union[str, float] = "raise",
                 policy: Optional[Mapping[str, Any]] = None, timeout: float = 300.0, reward: str = "score") -> None:
        super().__init__(url, token, format, scale, on_error, policy, timeout, reward)
        self.task_key, self.passed_key = task_key, passed_key
        self.__name__ = "steplens"

    def __call__(self, prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> List[float]:
        tasks = kwargs.get(self.task_key)
        if not isinstance(tasks, (list, tuple)) or len(tasks) != len(completions):
            raise SteplensError("bad_input", f"TRL reward: expected a dataset column {self.task_key!r} with one task id per completion "
                                f"(got {type(tasks).__name__ if tasks is not None else 'no such column'}; columns: {sorted(kwargs)})")
        passed = kwargs.get(self.passed_key) if self.passed_key else None
        labels = []
        for i, t in enumerate(tasks):
            task, p = parse_label(t)
            labels.append((task, bool(passed[i]) if passed is not None and passed[i] is not None else p))
        return self.scores(completions, labels)


class VerlReward(_Scorer):
    """A veRL ``compute_score(data_source, solution_str, ground_truth, extra_info=None)``: the ground
    truth is the task id (or ``{"task", "passed"}``); ``extra_info["task"]``/``["passed"]`` override it.
    With ``per_step`` it returns ``{"score": ..., "step_rewards": [...], "struct", "cov", "coh", "temp"}``.
    ``reward="forecast"``: the score is the final forecast P(pass) and the step rewards are its
    potential-based shaping (``gamma``), see :func:`forecast_shaping`."""

    def __init__(self, url: Optional[str] = None, *, per_step: bool = False, token: Optional[str] = None, format: str = "auto",
                 scale: float = 0.01, on_error: Union[str, float] = "raise", policy: Optional[Mapping[str, Any]] = None,
                 timeout: float = 300.0, reward: str = "score", gamma: float = 1.0) -> None:
        super().__init__(url, token, format, scale, on_error, policy, timeout, reward, gamma)
        self.per_step = per_step
        self.__name__ = "compute_score"

    def _label(self, ground_truth: Any, extra_info: Optional[Mapping[str, Any]]) -> Tuple[str, Optional[bool]]:
        extra = extra_info or {}
        task, passed = parse_label(extra["task"] if isinstance(extra.get("task"), str) else ground_truth)
        if isinstance(extra.get("passed"), bool):
            passed = extra["passed"]
        return task, passed

    def __call__(self, data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Optional[Mapping[str, Any]] = None,
                 **kwargs: Any) -> Union[float, Dict[str, Any]]:
        task, passed = self._label(ground_truth, extra_info)
        if not self.per_step:
            return self.scores([solution_str], [(task, passed)])[0]
        try:
            report = self.http.score(task, trajectory_of(solution_str, f"solution of {task}"),
                                     format=None if self.format == "auto" else self.format, passed=passed, policy=self.policy)
            rewards = step_rewards(self.url, task, solution_str, format=self.format, policy=self.policy, passed=passed,
                                   token=self.token, timeout=self.timeout, reward=self.reward, gamma=self.gamma)
        except SteplensError as error:
            # Not a log, or refused: ``on_error`` for the score, no step rewards, and -1 for each component (unknown).
            return {"score": self._value(error), "step_rewards": [], **{k: -1.0 for k in ("struct", "cov", "coh", "temp")}}
        vec = report["score"]
        return {"score": self._value(report), "step_rewards": rewards,
                **{k: (-1.0 if vec[k] is None else float(vec[k])) for k in ("struct", "cov", "coh", "temp")}}

    def batch(self, data_sources: Sequence[Any], solution_strs: Sequence[Any], ground_truths: Sequence[Any],
              extra_infos: Optional[Sequence[Optional[Mapping[str, Any]]]] = None, **kwargs: Any) -> List[float]:
        """veRL's batch reward manager signature: every solution in one HTTP call."""
        infos = extra_infos if extra_infos is not None else [None] * len(solution_strs)
        return self.scores(solution_strs, [self._label(g, e) for g, e in zip(ground_truths, infos)])


def compute_score(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Optional[Mapping[str, Any]] = None,
                  **kwargs: Any) -> float:
    """veRL entry point (``custom_reward_function.path`` = this file, ``name`` = ``compute_score``):
    the server is ``$STEPLENS_URL`` (default http://127.0.0.1:8787), token ``$STEPLENS_TOKEN``."""
    return VerlReward()(data_source, solution_str, ground_truth, extra_info)  # type: ignore[return-value]


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[Any], ground_truths: Sequence[Any],
                        extra_infos: Optional[Sequence[Optional[Mapping[str, Any]]]] = None, **kwargs: Any) -> List[float]:
    """veRL batch entry point (``reward_model.reward_manager=batch``, ``name`` = ``compute_score_batch``)."""
    return VerlReward().batch(data_sources, solution_strs, ground_truths, extra_infos)
