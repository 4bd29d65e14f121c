"""Test support: a real steplens server (``$STEPLENS_URL``, or one started once for the whole
run: ``node dist/bin/steplens.js serve --port 0`` over a temp data dir, stopped at exit; ``shared_server``
shares one with given flags the same way), and the real corpus trajectories the tests stream."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional

CLIENT_DIR = Path(__file__).resolve().parents[1]
REPO = CLIENT_DIR.parents[1]
sys.path.insert(0, str(CLIENT_DIR))
CORPUS = Path(os.environ.get("STEPLENS_CORPUS", REPO / "test" / ".corpus" / "corpus"))  # unpacked by `npm test` (test/fixtures)
if not CORPUS.is_dir():
    raise RuntimeError(
        f"the real runs these tests stream are not at {CORPUS}: run `npx vitest run test/python` once "
        "(it unpacks test/fixtures/corpus.tar.br into test/.corpus) or set STEPLENS_CORPUS to a corpus folder"
    )

MINI = "SWE-agent__mini-swe-agent__pull-refs/output"
#: pylint-dev__astroid-1196 has a bundled reference (data/example) built from the two passing runs;
#: the third run (deepseek_lite_dev_noparallel, NOT resolved) is scored against it.
ASTROID_TASK = "pylint-dev__astroid-1196"
ASTROID_FAIL = CORPUS / MINI / "deepseek_lite_dev_noparallel/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json"
ASTROID_PASS = [CORPUS / MINI / f"{run}/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json" for run in ("deepseek_chat_dev", "deepseek_chat_dev_rerun")]
#: django__django-11099 also has a bundled reference; its runs are three different agents/formats.
DJANGO_TASK = "django__django-11099"
DJANGO_RUNS = [
    CORPUS / "gruckion__mini-swe-agent/swebench_results/20251118_gemini-3-pro-74pct/trajs/django__django-11099/django__django-11099.traj.json",
    CORPUS / MINI / "deepseek_bench1/django__django-11099/django__django-11099.traj.json",
]

_lock = threading.Lock()
#: The servers shared by the whole run, by their flags (``()``: the plain one ``server_url`` answers).
_shared: "dict[tuple, str]" = {}


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def server_url() -> str:
    """The server under test: ``$STEPLENS_URL``, or a local one started on first use."""
    return shared_server()


def shared_server(*extra: str) -> str:
    """A local server with the flags ``extra``, started on first use and shared by every test that asks for the same
    flags (each start costs ~1.5 s of CPU); stopped at exit. Only for tests that need no fresh server: their sessions
    are their own, none restarts, stops or kills it. No flags: ``$STEPLENS_URL`` when set."""
    with _lock:
        if extra not in _shared:
            _shared[extra] = (not extra and os.environ.get("STEPLENS_URL")) or _start_server(list(extra))
        return _shared[extra]


def _start_server(extra: "list[str]") -> str:
    data = tempfile.mkdtemp(prefix="steplens-py-")
    url, stop = start_server(data=data, extra=extra)

    def stop_and_clean() -> None:
        stop()
        shutil.rmtree(data, ignore_errors=True)

    atexit.register(stop_and_clean)
    return url


#: The stop functions of the servers started here, for a SIGTERM (see _stop_on_sigterm).
_stoppers: "list[Callable[..., None]]" = []


def _stop_on_sigterm() -> None:
    """Stops the servers started here when this process gets SIGTERM (vitest's timeout, a CI runner), then exits 143.
    Python's default ends the process at once, without atexit: a server it started answered for 80 minutes after
    its suite was killed (stop 63). Not ``sys.exit``: unittest catches SystemExit as a test's error and goes on."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return  # only the main thread may set it, and a handler someone else set is theirs

    def on_sigterm(_signum: int, _frame: object) -> None:
        for stop in list(_stoppers):
            stop()
        os._exit(128 + signal.SIGTERM)

    signal.signal(signal.SIGTERM, on_sigterm)


#: The ``steplens`` bin (the esbuild bundle ``npm run build`` writes): a process of it starts on ~1 s of CPU, tsc's
#: ``dist/src/cli/main.js`` on ~2.4 s (it loads ~760 modules), and the suite starts ~20.
CLI = REPO / "dist" / "bin" / "steplens.js"


def start_server(port: int = 0, data: Optional[str] = None, extra: "Optional[list]" = None) -> "tuple[str, Callable[..., None]]":
    """Starts ``steplens serve`` on 127.0.0.1:``port`` over ``data`` (a temp dir when None), with
    ``extra`` flags, and returns its address and a function that stops it (SIGTERM, then waits: a
    graceful shutdown; ``stop(kill=True)``: SIGKILL, a crash)."""
    if not CLI.exists():
        raise RuntimeError(f"{CLI} is missing: run `npm run build` first")
    data = data or tempfile.mkdtemp(prefix="steplens-py-")
    proc = subprocess.Popen(["node", str(CLI), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", data, *(extra or [])],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def stop(kill: bool = False) -> None:
        if proc.poll() is not None:
            return
        if kill:
            proc.kill()
            proc.wait(10)
            return
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)

    atexit.register(stop)
    _stoppers.append(stop)
    _stop_on_sigterm()
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline() if proc.stdout else ""
        if line == "" and proc.poll() is not None:
            break
        lines.append(line)
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record.get("msg") == "steplens server listening" and isinstance(record.get("address"), str):
            threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # keep draining the log
            return record["address"], stop
    stop()
    raise RuntimeError("the steplens server did not start:\n" + "".join(lines[-20:]))


#: ``steplens convert``'s output by corpus file: converted once per run (a node process each, ~0.4 s of CPU).
_converted: "dict[str, str]" = {}


def steplens_steps(path: Path) -> list:
    """The normalised steps of a corpus file, as ``steplens convert`` writes them (JSON Lines); parsed afresh on each
    call, so a caller may change its list."""
    key = str(path)
    if key not in _converted:
        _converted[key] = subprocess.run(["node", str(CLI), "convert", key],
                                         cwd=REPO, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in _converted[key].splitlines() if line.strip()]


def train_forecast(out: Path) -> Path:
    """``steplens train`` on the corpus (outcomes from the evaluation files beside its runs): a real forecast model file."""
    subprocess.run(["node", str(CLI), "train", "--out", str(out), str(CORPUS)],
                   cwd=REPO, capture_output=True, text=True, check=True)
    return out


@contextlib.asynccontextmanager
async def fake_server(handler: Callable[..., Any]):
    """A fake steplens server on 127.0.0.1 (``websockets``) answering with ``handler``: yields its stream URL. Its
    own close waits 0.5 s for a client that stopped answering."""
    import websockets

    async with websockets.serve(handler, "127.0.0.1", 0, close_timeout=0.5) as server:
        yield f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1/stream"


def rewriting_relay(upstream: str, rewrite: Callable[[dict], list]) -> Callable[..., Any]:
    """A :func:`fake_server` handler in front of the real server at ``upstream``: client frames go up as they are,
    and each server frame goes down as the frames ``rewrite(frame)`` returns (``[frame]`` to pass it through)."""

    async def relay(down: Any, *_: Any) -> None:
        import asyncio

        import websockets

        async with websockets.connect(upstream) as up:

            async def up_to_down() -> None:
                async for text in up:
                    for out in rewrite(json.loads(text)):
                        await down.send(json.dumps(out))

            pump = asyncio.ensure_future(up_to_down())
            try:
                async for text in down:
                    await up.send(text)
            finally:
                pump.cancel()

    return relay


@contextlib.asynccontextmanager
async def fake_client(handler: Callable[..., Any], **connect_options: Any):
    """A client connected to a :func:`fake_server` of ``handler`` (no reconnect unless asked), closed at the end."""
    from steplens_client import connect

    async with fake_server(handler) as url:
        client = await connect(url, **{"reconnect": False, **connect_options})
        try:
            yield client
        finally:
            await client.close()



def relay_handler(upstream: str, log: list, hold: Callable[[str], float] = lambda text: 0.0):
    """A websockets handler in front of the real server at ``upstream`` (a stream URL): client frames go up as they
    are, each recorded parsed in ``log``; each server frame comes down ``hold(text)`` seconds late (a slow link or
    server: ``hold`` sees the frame before it goes)."""

    async def relay(down, *_):
        import websockets

        async with websockets.connect(upstream) as up:

            async def pump():
                async for text in up:
                    wait = hold(text)
                    if wait:
                        await asyncio.sleep(wait)
                    await down.send(text)

            task = asyncio.ensure_future(pump())
            try:
                async for text in down:
                    log.append(json.loads(text))
                    await up.send(text)
            finally:
                task.cancel()

    return relay


def stream_across_a_swap(url: str, steps: list, session_id: str, retries: int, swap: Callable[[Any], None]) -> tuple:
    """Streams ``steps`` of the astroid task as session ``session_id`` on ``url`` (reconnecting up to ``retries``
    times), calls ``swap(session)`` half way (it replaces the server behind ``url``), then the rest, a failed
    outcome and the end: the client's reconnects, the session, each step's answers and the final."""
    from steplens_client import Reconnect, connect

    async def run():
        client = await connect(url, reconnect=Reconnect(retries=retries, delay=0.05))
        try:
            session = await client.start(ASTROID_TASK, session=session_id)
            half = len(steps) // 2
            answers = [await session.step(s) for s in steps[:half]]
            swap(session)
            answers += [await session.step(s) for s in steps[half:]]
            await session.outcome(False)
            final = await session.end()
            return client.reconnects, session, answers, final
        finally:
            await client.close()

    return asyncio.run(run())


def assert_each_step_scored_once(test: Any, steps: list, session: Any, answers: list, final: dict, batch: dict) -> None:
    """Every step answered once, with its own score and in order, and the final as the batch scoring of the run."""
    test.assertEqual([[f["t"] for f in a] for a in answers], [[i] for i in range(len(steps))])
    test.assertEqual([f["t"] for f in session.scores], list(range(len(steps))))
    test.assertEqual({k: final[k] for k in batch}, batch)
