"""Replicas sharing a real Redis (``steplens serve --redis``): a session survives the crash
(SIGKILL) of its replica; the client reconnects to a new replica, resumes there (the session is
rebuilt from Redis, not started again), and no step is lost or counted twice."""

import asyncio
import os
import shutil
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.request
from urllib.parse import urlparse

import support
from steplens_client import HttpClient, Reconnect, connect


def start_redis(port: int = 0, workdir: str = "") -> "tuple[str, callable]":
    """A real redis-server (Debian's package) on ``port`` (a free one when 0), append-only file in
    ``workdir`` (a temp dir when empty; the stop function then removes it)."""
    binary = os.environ.get("REDIS_SERVER") or shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.path.exists(binary):
        raise RuntimeError("redis-server not found: apt-get install redis-server (or set REDIS_SERVER)")
    if not port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    owned = not workdir
    workdir = workdir or tempfile.mkdtemp(prefix="steplens-py-redis-")
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", workdir, "--save", "",
                             "--appendonly", "yes", "--loglevel", "warning"], stdout=subprocess.DEVNULL)

    def stop() -> None:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        if owned:
            shutil.rmtree(workdir, ignore_errors=True)

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as c:
                c.sendall(b"PING\r\n")
                if c.recv(16).startswith(b"+PONG"):
                    return f"redis://127.0.0.1:{port}", stop
        except OSError:
            time.sleep(0.05)
    stop()
    raise RuntimeError(f"redis-server did not answer on port {port}")


def metric(url: str, name: str) -> float:
    text = urllib.request.urlopen(f"{url}/metrics").read().decode()
    return next(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))


class ReplicaFailoverTest(unittest.TestCase):
    def test_session_resumes_on_a_new_replica_after_a_crash(self):
        redis_url, stop_redis = start_redis()
        flags = ["--redis", redis_url, "--redis-prefix", "py-failover:", "--lease", "2"]
        url, stop = support.start_server(extra=flags + ["--replica-id", "py-a"])
        try:
            steps = support.steplens_steps(support.ASTROID_FAIL)
            batch = HttpClient(url).score(support.ASTROID_TASK, steps, passed=False)
            port = urlparse(url).port

            def crash_and_replace(_session):
                nonlocal stop
                stop(kill=True)  # a crash: no final, no hand-back
                _, stop = support.start_server(port=port, extra=flags + ["--replica-id", "py-b"])

            reconnects, session, answers, final = support.stream_across_a_swap(url, steps, "py-failover", 20, crash_and_replace)
            self.assertEqual(reconnects, 1)
            support.assert_each_step_scored_once(self, steps, session, answers, final, batch)
            self.assertEqual(final["reason"], "end")
            # The new replica took the session over from Redis (it was not started again).
            self.assertEqual(metric(url, "steplens_sessions_rebuilt_total"), 1)
        finally:
            stop()
            stop_redis()


class ResumeRefusedTest(unittest.TestCase):
    """The socket drops while Redis is down: the reconnect's resume is refused ``unavailable`` and asked again
    with backoff, the session's steps held meanwhile; once Redis is back they are scored, same final."""

    def test_a_refused_resume_is_asked_again_until_redis_is_back(self):
        workdir = tempfile.mkdtemp(prefix="steplens-py-redis-")
        redis_url, stop_redis = start_redis(workdir=workdir)
        redis_port = urlparse(redis_url).port
        flags = ["--redis", redis_url, "--redis-prefix", "py-refused:", "--lease", "2"]
        url, stop = support.start_server(extra=flags + ["--replica-id", "py-r"])
        try:
            steps = support.steplens_steps(support.ASTROID_FAIL)
            batch = HttpClient(url).score(support.ASTROID_TASK, steps, passed=False)

            async def run():
                nonlocal stop_redis
                client = await connect(url, reconnect=Reconnect(retries=10, delay=0.05))
                try:
                    session = await client.start(support.ASTROID_TASK, session="py-refused")
                    answers = [await session.step(s) for s in steps[:10]]
                    stop_redis()  # SIGKILL
                    reconnected = asyncio.get_running_loop().create_future()
                    client.on_reconnect(lambda: reconnected.done() or reconnected.set_result(None))
                    client.socket.transport.abort()
                    rest = [asyncio.ensure_future(session.step(s)) for s in steps[10:]]
                    await asyncio.wait_for(reconnected, 10)
                    await asyncio.sleep(0.4)
                    held = not session.done and not any(f.done() for f in rest)
                    _, stop_redis = start_redis(port=redis_port, workdir=workdir)
                    answers += await asyncio.wait_for(asyncio.gather(*rest), 30)
                    await session.outcome(False)
                    final = await session.end()
                    return held, session, answers, final
                finally:
                    await client.close()

            held, session, answers, final = asyncio.run(run())
            self.assertTrue(held, "steps were settled while the resume was refused")
            support.assert_each_step_scored_once(self, steps, session, answers, final, batch)
        finally:
            stop()
            stop_redis()
            shutil.rmtree(workdir, ignore_errors=True)

    def test_gives_up_after_the_retries_and_the_held_steps_raise_unavailable(self):
        redis_url, stop_redis = start_redis()
        flags = ["--redis", redis_url, "--redis-prefix", "py-given-up:", "--lease", "2"]
        url, stop = support.start_server(extra=flags + ["--replica-id", "py-g"])
        try:
            steps = support.steplens_steps(support.ASTROID_FAIL)

            async def run():
                client = await connect(url, reconnect=Reconnect(retries=2, delay=0.05))
                try:
                    session = await client.start(support.ASTROID_TASK, session="py-given-up")
                    for s in steps[:10]:
                        await session.step(s)
                    stop_redis()
                    client.socket.transport.abort()
                    results = await asyncio.wait_for(asyncio.gather(*(session.step(s) for s in steps[10:13]), return_exceptions=True), 20)
                    return session, results, client.closed
                finally:
                    await client.close()

            session, results, closed = asyncio.run(run())
            self.assertEqual([getattr(r, "code", r) for r in results], ["unavailable"] * 3)
            self.assertIn("could not be resumed after 2 attempts", str(session.lost))
            self.assertFalse(closed)
        finally:
            stop()
            stop_redis()


if __name__ == "__main__":
    unittest.main()
