"""The HTTP API of a steplens server over urllib: batch scoring, OpenRLHF's ``/get_reward``,
ranking runs of one task, sessions, references (add, remove), health."""

from __future__ import annotations

import http.client
import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union, cast

from .answer import MAX_ANSWER_BYTES, read_answer, read_error_text
from .errors import SteplensError
from .outcome import outcome_flag
from .trajectory import parse_text
from .urls import base_url

Report = Dict[str, Any]

#: Items the server takes in one ``POST /v1/score/batch`` (``MAX_BATCH_ITEMS``, src/protocol/http-bodies.ts).
MAX_BATCH_ITEMS = 1024
#: Runs the server ranks in one ``POST /v1/rank`` (``MAX_RANK_RUNS``, src/protocol/rank-bodies.ts).
MAX_RANK_RUNS = 64
#: Bytes of one batch body the reward functions send at most: half the server's default body limit
#: (``maxBodyBytes``, 64 MiB); a larger batch goes in several calls. An item larger than this goes alone.
DEFAULT_BATCH_BYTES = 32 * 1024 * 1024


#: Longest agent or model name the server takes (src/protocol/http-bodies.ts).
MAX_SOURCE_NAME = 256


def score_request(task: str, trajectory: Any, *, format: Optional[str] = None, passed: Optional[bool] = None,
                  policy: Optional[Mapping[str, Any]] = None, agent: Optional[str] = None,
                  model: Optional[str] = None) -> Dict[str, Any]:
    """The body of one ``POST /v1/score`` (one item of a batch). ``trajectory`` is the parsed log
    (a JSON document, or a list of JSON Lines records) or its text. ``agent`` / ``model`` name the run's source,
    which picks its forecast model and recalibration on a ``serve --forecast`` server (default: what the log
    names; a SWE-agent 0.x ``.traj`` names no model), as :meth:`HttpClient.rank`'s do."""
    if not isinstance(task, str) or task == "":
        raise SteplensError("bad_input", f"task: expected a non-empty string (got {task!r})")
    if isinstance(trajectory, (str, bytes)):
        trajectory = parse_text(trajectory.decode("utf-8") if isinstance(trajectory, bytes) else trajectory, f"trajectory of {task}")
    body: Dict[str, Any] = {"task": task, "trajectory": trajectory}
    if format is not None:
        body["format"] = format
    if passed is not None:
        body["passed"] = outcome_flag(passed)
    if policy is not None:
        body["policy"] = dict(policy)
    for key, value in (("agent", agent), ("model", model)):
        if value is None:
            continue
        if not isinstance(value, str) or not 1 <= len(value) <= MAX_SOURCE_NAME:
            raise SteplensError("bad_input", f"{key}: expected a string of 1 to {MAX_SOURCE_NAME} characters (got {value!r:.80})")
        body[key] = value
    return body


class HttpClient:
    """A steplens server's HTTP API. Every failure raises :class:`SteplensError` with the
    server's error code and message (``bad_message``, ``unknown_task``, ...)."""

    def __init__(self, url: str, *, token: Optional[str] = None, timeout: float = 120.0,
                 max_answer_bytes: int = MAX_ANSWER_BYTES) -> None:
        self.url = base_url(url)
        self.token = token
        #: Seconds for the answer's headers, then as long again for its body (answer.py).
        self.timeout = timeout
        #: An answer longer than this is refused ``too_large`` unread (a hostile or broken server).
        self.max_answer_bytes = max_answer_bytes

    def request(self, method: str, path: str, body: Any = None) -> Any:
        """One JSON request; returns the decoded answer."""
        headers = {"accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["content-type"] = "application/json"
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                text = read_answer(res, self.max_answer_bytes, self.timeout, f"{method} {path}").decode("utf-8")
        except urllib.error.HTTPError as e:
            raise _http_error(method, path, e, self.timeout) from None
        except urllib.error.URLError as e:
            if data is not None and isinstance(e.reason, _CUT):
                raise _cut(method, path, data, f"while the body of {len(data):,} bytes was being sent", e.reason) from None
            if data is not None and isinstance(e.reason, (TimeoutError, socket.timeout)):
                # urllib wraps a send that timed out as it wraps a refused connect: the server took the connection but
                # did not read the body within the timeout (hung, or stopped), which is no `unreachable` server.
                raise SteplensError("timeout", f"{method} {path}: not sent within {self.timeout} s (connecting, or the body "
                                    f"of {len(data):,} bytes: the server stopped reading it)") from None
            raise SteplensError("unreachable", f"cannot reach {self.url}: {e.reason}") from None
        except socket.timeout:  # TimeoutError from Python 3.10; socket.timeout, its own class, on 3.9
            raise SteplensError("timeout", f"{method} {path}: no answer within {self.timeout} s") from None
        except (ConnectionError, http.client.HTTPException) as e:
            # urllib wraps what fails while sending in URLError: this one broke once the request was out, before or
            # while the answer came back.
            raise _cut(method, path, data, "before its answer was read", e) from None
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise SteplensError("bad_frame", f"{method} {path}: the server answered non-JSON: {text[:200]!r}") from None
        except (ValueError, RecursionError) as e:  # nested past the recursion limit, an integer past the digit limit
            raise SteplensError("bad_frame", f"{method} {path}: the server answered JSON this client cannot read "
                                f"({str(e).split(';')[0][:100]})") from None

    def score(self, task: str, trajectory: Any, *, format: Optional[str] = None, passed: Optional[bool] = None,
              policy: Optional[Mapping[str, Any]] = None, agent: Optional[str] = None, model: Optional[str] = None) -> Report:
        """``POST /v1/score``: the whole-trajectory report (the same as a session's ``final``). ``agent`` / ``model``:
        the run's source, for its forecast model (see :func:`score_request`)."""
        return self.request("POST", "/v1/score", score_request(task, trajectory, format=format, passed=passed, policy=policy,
                                                                agent=agent, model=model))

    def score_batch(self, items: Sequence[Mapping[str, Any]], *, raise_errors: bool = False) -> List[Union[Report, SteplensError]]:
        """``POST /v1/score/batch``: one report per item, in order. An item the server refused is
        a :class:`SteplensError` in the list (raised instead with ``raise_errors``). Items are
        :func:`score_request` bodies, or dicts with the same keys."""
        out: List[Union[Report, SteplensError, None]] = [None] * len(items)
        sent: List[Tuple[int, Dict[str, Any]]] = []
        for i, item in enumerate(items):
            args = _item_args(i, item)
            try:
                sent.append((i, score_request(**args)))
            except SteplensError as e:
                # An item the server would refuse (text that is no JSON, an outcome that is no boolean) is refused
                # here, in its place: the other items are still scored, as for an item the server refuses.
                refused = SteplensError(e.code, f"item {i} ({args['task']}): {e.message}")
                if raise_errors:
                    raise refused from e
                out[i] = refused
        if sent:
            answer = self.request("POST", "/v1/score/batch", {"items": [body for _, body in sent]})
            results = answer.get("results") if isinstance(answer, dict) else None
            if not isinstance(results, list) or len(results) != len(sent):
                raise SteplensError("bad_frame", f"POST /v1/score/batch: expected {len(sent)} results, got {answer!r:.200}")
            for (i, body), r in zip(sent, results):
                err = r.get("error") if isinstance(r, dict) else None
                if isinstance(err, dict):
                    e = SteplensError(str(err.get("code", "internal")), f"item {i} ({body['task']}): {err.get('message', '')}")
                    if raise_errors:
                        raise e
                    out[i] = e
                else:
                    out[i] = r
        return cast(List[Union[Report, SteplensError]], out)  # every place filled: refused here or answered

    def get_reward(self, query: Sequence[str], *, prompts: Optional[Sequence[str]] = None,
                   labels: Optional[Sequence[Optional[str]]] = None) -> Dict[str, Any]:
        """``POST /get_reward``, OpenRLHF's remote reward model call: ``{rewards, scores, extra_logs}``."""
        body: Dict[str, Any] = {"query": list(query)}
        if prompts is not None:
            body["prompts"] = list(prompts)
        if labels is not None:
            body["labels"] = list(labels)
        return self.request("POST", "/get_reward", body)

    def rank(self, runs: Sequence[Mapping[str, Any]], *, task: Optional[str] = None, consensus: bool = False,
             mixed_tasks: bool = False, agent: Optional[str] = None, model: Optional[str] = None,
             basis: Optional[str] = None, rank_model: Optional[str] = None) -> Dict[str, Any]:
        """``POST /v1/rank``: N runs of one task (best-of-N), best first. Each run is a mapping:
        ``{"trajectory": log, "format"?, "task"?, "id"?, "agent"?, "model"?}`` (a finished run; text is parsed here, as for
        :meth:`score`) or ``{"session": id, "id"?}`` (a session of this server, by its score so far).
        Answers ``{task, by, runs}``: ``by`` is what the group is ordered by (``pPass``, ``pta``,
        ``consensus`` when ``consensus`` is asked and neither applies, ``vote`` likewise with ``basis="vote"``,
        ``reference-free``, ``mixed``); ``basis`` is ``"consensus"`` (as ``consensus=True``) or ``"vote"`` (how many
        runs made the same normalised final patch, ties by the composite; a session run only when it was ended with
        its patch, ``session.end(patch=diff)``: a session keeps no step text). Each run has ``index`` (its place in ``runs``), ``id``, ``rank`` (tied runs share
        one), ``tied``, ``score``, ``composite``, ``reference``, ``steps`` and ``pPass`` / ``consensus`` / ``vote``
        when they apply; ``open`` (``True``) marks a session not ended yet, ranked on its steps so far. The answer's
        ``basisFlat`` (``True``) says ``consensus`` or ``vote`` gave every run one value: the composite alone ordered them.
        Runs of different tasks fail with ``mixed_tasks`` unless ``mixed_tasks=True``. ``agent`` / ``model``
        (or a run's own) name the runs' source, which picks the server's forecast model as for :meth:`score`
        (default: what each log names). ``rank_model`` (``"prefix"`` or ``"end"``, as ``steplens rank --rank-model``)
        chooses which of the server's forecast models gives each trajectory its ``pPass``: ``"end"`` its end-of-run
        model (a ``--forecast`` file trained with ``--end-model``); session runs keep the prefix model. The answer then
        carries ``rankModel`` and, on each run with a ``pPass``, ``pPassModel`` (which model gave it); a server without
        that model raises ``no_forecast_model``. Runs with no step are listed in ``unranked``.

        1 to :data:`MAX_RANK_RUNS` (64) runs a call, the server's limit: more (or none) raise ``bad_input`` before
        anything is sent. One run is ranked alone (rank 1, its score on the basis; by ``consensus`` it has no other
        run to agree with and scores 0)."""
        if isinstance(runs, (str, bytes, Mapping)) or not isinstance(runs, Sequence):
            raise SteplensError("bad_input", f"runs: expected a list of runs (got {type(runs).__name__})")
        if not 1 <= len(runs) <= MAX_RANK_RUNS:
            raise SteplensError("bad_input", f"runs: {len(runs)} runs; a rank call takes 1 to {MAX_RANK_RUNS} runs of one task "
                                             "(the server's limit, POST /v1/rank)")
        body: Dict[str, Any] = {"runs": [_rank_run(i, r) for i, r in enumerate(runs)]}
        if task is not None:
            body["task"] = task
        if consensus:
            body["consensus"] = True
        if basis is not None:
            body["basis"] = basis
        if mixed_tasks:
            body["mixedTasks"] = True
        if agent is not None:
            body["agent"] = agent
        if model is not None:
            body["model"] = model
        if rank_model is not None:
            body["rankModel"] = rank_model
        return self.request("POST", "/v1/rank", body)

    def session(self, session_id: str) -> Dict[str, Any]:
        """``GET /v1/sessions/:id``: the live score of a session."""
        return self.request("GET", "/v1/sessions/" + urllib.parse.quote(session_id, safe=""))

    def tasks(self) -> List[Dict[str, Any]]:
        """``GET /v1/tasks``: tasks with their PTA stats."""
        return self.request("GET", "/v1/tasks")["tasks"]

    def add_reference(self, task: str, trajectory: Any, *, format: Optional[str] = None) -> Dict[str, Any]:
        """``POST /v1/tasks/:task/references``: adds a passing trajectory to the task's PTA."""
        body = score_request(task, trajectory, format=format)
        del body["task"]
        return self.request("POST", f"/v1/tasks/{urllib.parse.quote(task, safe='')}/references", body)

    def remove_pta(self, task: str, *, scope: Optional[str] = None, tenant: Optional[str] = None) -> Dict[str, Any]:
        """``DELETE /v1/tasks/:task/pta``: removes a PTA of the task and answers ``{task, scope, version}`` (the
        version removed). By default the token's tenant's own PTA (the server's ``tenant`` reference scope);
        ``tenant``: that tenant's own (operators); ``scope="shared"``: the shared PTA (operators). A task without
        one (or another tenant's, for a token that may not see it) raises ``unknown_task`` (404)."""
        query = {k: v for k, v in (("scope", scope), ("tenant", tenant)) if v is not None}
        path = f"/v1/tasks/{urllib.parse.quote(task, safe='')}/pta"
        return self.request("DELETE", path + ("?" + urllib.parse.urlencode(query) if query else ""))

    def health(self) -> bool:
        """True when ``GET /healthz`` answers ok."""
        try:
            return self.request("GET", "/healthz").get("status") == "ok"
        except SteplensError:
            return False


def batches(items: Sequence[Tuple[int, Dict[str, Any]]], max_items: int = MAX_BATCH_ITEMS,
            max_bytes: int = DEFAULT_BATCH_BYTES) -> List[List[Tuple[int, Dict[str, Any]]]]:
    """``(index, score request)`` pairs cut into batches of at most ``max_items`` whose body (as
    :meth:`HttpClient.request` writes it) stays within ``max_bytes``; an item larger than that alone."""
    out: List[List[Tuple[int, Dict[str, Any]]]] = []
    current: List[Tuple[int, Dict[str, Any]]] = []
    empty = len(json.dumps({"items": []}))
    size = empty
    for index, item in items:
        n = len(json.dumps(item)) + 2  # ASCII (json.dumps escapes the rest), so characters are bytes; ", " between items
        if current and (len(current) >= max_items or size + n > max_bytes):
            out.append(current)
            current, size = [], empty
        current.append((index, item))
        size += n
    if current:
        out.append(current)
    return out


def _item_args(i: int, item: Mapping[str, Any]) -> Dict[str, Any]:
    if not isinstance(item, Mapping) or "task" not in item or "trajectory" not in item:
        raise SteplensError("bad_input", f"items[{i}]: expected a mapping with task and trajectory")
    unknown = set(item) - {"task", "trajectory", "format", "passed", "policy", "agent", "model"}
    if unknown:
        raise SteplensError("bad_input", f"items[{i}]: unknown keys {sorted(unknown)}")
    return dict(item)


_RANK_KEYS = {"trajectory", "format", "task", "id", "session", "agent", "model"}


def _rank_run(i: int, run: Mapping[str, Any]) -> Dict[str, Any]:
    if not isinstance(run, Mapping):
        raise SteplensError("bad_input", f"runs[{i}]: expected a mapping with trajectory or session (got {type(run).__name__})")
    unknown = set(run) - _RANK_KEYS
    if unknown:
        raise SteplensError("bad_input", f"runs[{i}]: unknown keys {sorted(unknown)}")
    if ("trajectory" in run) == ("session" in run):
        raise SteplensError("bad_input", f"runs[{i}]: give either trajectory (a finished run) or session (a session id), not both")
    out = dict(run)
    trajectory = out.get("trajectory")
    if isinstance(trajectory, (str, bytes)):
        out["trajectory"] = parse_text(trajectory.decode("utf-8") if isinstance(trajectory, bytes) else trajectory, f"runs[{i}].trajectory")
    return out


#: A connection the server closed (or that was cut) while the request was being written.
_CUT = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


def _cut(method: str, path: str, body: Optional[bytes], when: str, reason: BaseException) -> SteplensError:
    """The connection closed under a request: ``disconnected``, not ``unreachable`` (the server was reached). A server
    refuses a body over its limit before reading it, and may close the connection so: the message says it."""
    why = (": the body is over the server's size limit (maxBodyBytes, 64 MiB by default; send fewer or smaller items per "
           "call), or the connection was cut") if body else ""
    return SteplensError("disconnected", f"{method} {path}: the server closed the connection {when} ({reason or type(reason).__name__}){why}")


def _http_error(method: str, path: str, e: urllib.error.HTTPError, timeout: float) -> SteplensError:
    # Its first 64 KiB only: an error answer without end must not take the client's memory (answer.py).
    try:
        text = read_error_text(e.fp, timeout, f"{method} {path}") if e.fp is not None else ""
    finally:
        e.close()  # what was not read is dropped with the connection
    try:
        err = json.loads(text).get("error")
        if isinstance(err, dict) and "code" in err:
            return SteplensError(str(err["code"]), f"{method} {path}: {err.get('message', '')}", status=e.code)
    except (ValueError, RecursionError, AttributeError):  # not JSON, or JSON this interpreter will not read
        pass
    return SteplensError("http_error", f"{method} {path}: {text[:300] or e.reason}", status=e.code)
