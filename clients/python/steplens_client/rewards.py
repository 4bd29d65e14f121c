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
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .errors import SteplensError
from .outcome import outcome_flag
from .http import DEFAULT_BATCH_BYTES, MAX_BATCH_ITEMS, HttpClient, batches, score_request
from .trajectory import detect_format, parse_text
from .trajectory import events as split_events

if TYPE_CHECKING:  # streaming needs websockets; the HTTP reward functions do not, so it is imported where it is used
    from .session import Session
    from .stream import StreamClient

DEFAULT_URL = "http://127.0.0.1:8787"

#: Sessions ``step_rewards_many`` streams at once over its one connection: below the server's
#: ``sessionsPerConnection`` (64 by default), which refuses the next one with ``overloaded``.
DEFAULT_CONCURRENCY = 32
#: Errors that say the server cannot be used at all (not that it refused a batch's content): raised whatever
#: ``on_error`` says, since every other batch would fail the same way and rewards of ``nan`` would hide it.
SERVER_ERRORS = frozenset({"unreachable", "unauthorized", "forbidden", "bad_url", "timeout"})


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
    """The per-step process rewards of a trajectory (one per step, as streamed ``score`` frames carry them, on the
    composite's 0-100 scale; with ``reward="forecast"`` the potential-based shaping of their pPass, see
    :func:`forecast_shaping`)."""
    out = step_rewards_many(url, [{"task": task, "trajectory": trajectory, "format": format, "policy": policy, "passed": passed}],
                            token=token, timeout=timeout, reward=reward, gamma=gamma, concurrency=1)
    return out[0]  # type: ignore[return-value]  # on_error="raise": a list


def step_rewards_many(url: str, items: Sequence[Mapping[str, Any]], *, token: Optional[str] = None,
                      timeout: float = 120.0, reward: str = "score", gamma: float = 1.0,
                      concurrency: int = DEFAULT_CONCURRENCY, on_error: str = "raise") -> List[Union[List[float], SteplensError]]:
    """Per-step rewards of many trajectories (``{task, trajectory, format?, policy?, passed?}``), in order,
    streamed as sessions over one connection, ``concurrency`` at a time (keep it at most the server's
    ``sessionsPerConnection``, 64 by default). Every session is ended, also when an item fails.

    ``on_error="raise"`` (default): the first item that fails (not a log, refused by the server) raises its
    :class:`SteplensError` once the items in flight are stopped and their sessions ended. ``"return"``:
    a failed item's place holds its :class:`SteplensError` and the other items are still scored. ``timeout``
    bounds the whole call."""
    _check_reward(reward)
    if on_error not in ("raise", "return"):
        raise SteplensError("bad_input", f"on_error: expected 'raise' or 'return' (got {on_error!r})")
    if not isinstance(concurrency, int) or isinstance(concurrency, bool) or concurrency < 1:
        raise SteplensError("bad_input", f"concurrency: expected a positive integer (got {concurrency!r})")
    from .sync import SyncClient  # needs websockets

    with SyncClient(url, token=token, timeout=timeout) as client:
        results = client.call(_stream_all(client.client, items, concurrency, on_error == "raise"))
    out: List[Union[List[float], SteplensError]] = []
    for frames in results:
        if isinstance(frames, SteplensError):
            out.append(frames)
        elif reward == "score":
            out.append([f["reward"] for f in frames])
        else:
            out.append(forecast_shaping([p_pass(f) for f in frames], gamma=gamma))
    return out


#: Seconds an item's session gets to end when its streaming failed or was stopped.
_END_TIMEOUT = 10.0


async def _stream_all(client: "StreamClient", items: Sequence[Mapping[str, Any]], concurrency: int,
                      raise_first: bool) -> List[Union[List[Any], SteplensError]]:
    """Each item's score frames (or its error), ``concurrency`` sessions at a time. With ``raise_first`` the first
    failure stops the other items (their sessions ended) and is raised; else each failure is its item's result."""
    gate = asyncio.Semaphore(concurrency)

    async def one(item: Mapping[str, Any]) -> List[Any]:
        async with gate:
            doc = trajectory_of(item["trajectory"], f"trajectory of {item['task']}")
            passed = None if item.get("passed") is None else outcome_flag(item["passed"], f"passed of {item['task']}")
            fmt = item.get("format") or "auto"
            payloads = split_events(doc, fmt, item["task"])
            name = detect_format(doc) if fmt == "auto" else fmt
            kwargs = {k: v for k, v in (("format", name), ("policy", item.get("policy"))) if v is not None}
            starting = asyncio.ensure_future(client.start(item["task"], **kwargs))
            session: Optional[Session] = None
            try:
                session = await asyncio.shield(starting)
                answers = await asyncio.gather(*(session.step(p) for p in payloads), return_exceptions=True)
                failed = next((a for a in answers if isinstance(a, BaseException)), None)
                if failed is not None:
                    raise failed
                if passed is not None:
                    await session.outcome(passed)
                await session.end()
                return list(session.scores)
            finally:
                # A failed or stopped item: end its session, so the server does not keep it open (it counts toward the
                # connection's and the tenant's open sessions until its resume window ends). One stopped while starting
                # is opened by the server all the same: it is ended once started.
                if session is None and not starting.cancelled():
                    try:
                        session = await asyncio.wait_for(asyncio.shield(starting), _END_TIMEOUT)
                    except (SteplensError, asyncio.TimeoutError):
                        pass
                if session is not None and not session.done:
                    try:
                        await asyncio.wait_for(session.end(), _END_TIMEOUT)
                    except (SteplensError, asyncio.TimeoutError):
                        pass

    tasks = [asyncio.ensure_future(one(item)) for item in items]
    if not tasks:
        return []
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION if raise_first else asyncio.ALL_COMPLETED)
    finally:
        for task in tasks:
            if not task.done():
                task.cancel()
        # Every item's task awaited (so none is left running nor its error unread) before anything is raised.
        await asyncio.gather(*tasks, return_exceptions=True)
    # Only after a failure with ``raise_first`` was any task cancelled: that failure is raised here.
    errors = [e for e in (None if t.cancelled() else t.exception() for t in tasks) if e is not None]
    bug = next((e for e in errors if not isinstance(e, SteplensError)), None)
    if bug is not None or (raise_first and errors):
        raise bug or errors[0]
    out: List[Union[List[Any], SteplensError]] = []
    for task in tasks:
        error = task.exception()
        out.append(error if isinstance(error, SteplensError) else task.result())
    return out


class _Scorer:
    def __init__(self, url: Optional[str], token: Optional[str], format: str, scale: float, on_error: Union[str, float],
                 policy: Optional[Mapping[str, Any]], timeout: float, reward: str = "score", gamma: float = 1.0,
                 batch_items: int = MAX_BATCH_ITEMS, batch_bytes: int = DEFAULT_BATCH_BYTES) -> None:
        self.reward, self.gamma = _check_reward(reward), gamma
        if not isinstance(batch_items, int) or not 1 <= batch_items <= MAX_BATCH_ITEMS:
            raise SteplensError("bad_input", f"batch_items: expected 1 to {MAX_BATCH_ITEMS} (got {batch_items!r})")
        if not isinstance(batch_bytes, int) or batch_bytes < 1:
            raise SteplensError("bad_input", f"batch_bytes: expected a positive number of bytes (got {batch_bytes!r})")
        self.batch_items, self.batch_bytes = batch_items, batch_bytes
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
        """Composite scores of many trajectories through ``/v1/score/batch``: in batches of at most ``batch_items``
        items and ``batch_bytes`` bytes (completions that are not a log are not sent: they get ``on_error``). A batch
        the server refuses as a whole (too large, cut off while sent, a server fault) gets ``on_error`` for each of
        its items; errors that say the server cannot be used (unreachable, unauthorized, timeout) are raised."""
        items = self._items(trajectories, labels)
        if self.on_error == "raise":
            for item in items:
                if isinstance(item, SteplensError):
                    raise item
        results: List[Any] = list(items)
        sent = [(i, item) for i, item in enumerate(items) if not isinstance(item, SteplensError)]
        for chunk in batches(sent, self.batch_items, self.batch_bytes):
            try:
                answers: List[Any] = self.http.score_batch([item for _, item in chunk])
            except SteplensError as error:
                if self.on_error == "raise" or error.code in SERVER_ERRORS:
                    raise
                answers = [error] * len(chunk)
            for (i, _), answer in zip(chunk, answers):
                results[i] = answer
        return [self._value(r) for r in results]


class TrlReward(_Scorer):
    """A TRL reward function: ``GRPOTrainer(reward_funcs=[TrlReward(url)], ...)``. The task id of each
    completion is the dataset column ``task_key`` (passed by TRL as a keyword list); a
    ``passed_key`` column, if given, is the test outcome. The batch goes in as few HTTP calls as fit
    ``batch_items`` (at most 1,024, the server's limit) and ``batch_bytes`` (32 MiB: keep it below the
    server's ``maxBodyBytes``, 64 MiB by default). ``on_error``: ``"raise"`` (default), ``"nan"``, or a
    number to use instead. ``reward="forecast"``: each completion's final forecast P(pass) (server with
    ``--forecast``) instead of its score."""

    def __init__(self, url: Optional[str] = None, *, task_key: str = "task", passed_key: Optional[str] = None,
                 token: Optional[str] = None, format: str = "auto", scale: float = 0.01, on_error: Union[str, float] = "raise",
                 policy: Optional[Mapping[str, Any]] = None, timeout: float = 300.0, reward: str = "score",
                 batch_items: int = MAX_BATCH_ITEMS, batch_bytes: int = DEFAULT_BATCH_BYTES) -> None:
        super().__init__(url, token, format, scale, on_error, policy, timeout, reward, batch_items=batch_items, batch_bytes=batch_bytes)
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
    With ``per_step`` it returns ``{"score": ..., "step_rewards": [...], "struct", "cov", "coh", "temp"}``:
    ``score`` and every step reward are times ``scale`` (the step rewards are the composite's increments,
    so they sum to ``score``); ``struct`` and ``cov`` are on 0-100 (-1 when the task has no reference),
    ``coh`` and ``temp`` on 0-1, unscaled. ``reward="forecast"``: the score is the final forecast P(pass)
    and the step rewards are its potential-based shaping (``gamma``), see :func:`forecast_shaping`, both
    on 0-1 and unscaled. :meth:`batch` sends its batch as :class:`TrlReward` does (``batch_items``, ``batch_bytes``)."""

    def __init__(self, url: Optional[str] = None, *, per_step: bool = False, token: Optional[str] = None, format: str = "auto",
                 scale: float = 0.01, on_error: Union[str, float] = "raise", policy: Optional[Mapping[str, Any]] = None,
                 timeout: float = 300.0, reward: str = "score", gamma: float = 1.0,
                 batch_items: int = MAX_BATCH_ITEMS, batch_bytes: int = DEFAULT_BATCH_BYTES) -> None:
        super().__init__(url, token, format, scale, on_error, policy, timeout, reward, gamma, batch_items=batch_items, batch_bytes=batch_bytes)
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
        if self.reward == "score":
            rewards = [r * self.scale for r in rewards]  # on the score's scale, so they sum to it
        vec = report["score"]
        return {"score": self._value(report), "step_rewards": rewards,
                **{k: (-1.0 if vec[k] is None else float(vec[k])) for k in ("struct", "cov", "coh", "temp")}}

    def batch(self, data_sources: Sequence[Any], solution_strs: Sequence[Any], ground_truths: Sequence[Any],
              extra_infos: Optional[Sequence[Optional[Mapping[str, Any]]]] = None, **kwargs: Any) -> List[float]:
        """veRL's batch reward manager signature: the solutions in as few HTTP calls as the batch limits allow."""
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
