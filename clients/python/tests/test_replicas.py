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


def start_redis() -> "tuple[str, callable]":
    """A real redis-server (Debian's package) on a free port, append-only file in a temp dir."""
    binary = os.environ.get("REDIS_SERVER") or shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.path.exists(binary):
        raise RuntimeError("redis-server not found: apt-get install redis-server (or set REDIS_SERVER)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    workdir = tempfile.mkdtemp(prefix="steplens-py-redis-")
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", workdir, "--save", "",
                             "--appendonly", "yes", "--loglevel", "warning"], stdout=subprocess.DEVNULL)

    def stop() -> None:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
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

            async def run():
                nonlocal stop
                client = await connect(url, reconnect=Reconnect(retries=20, delay=0.05))
                try:
                    session = await client.start(support.ASTROID_TASK, session="py-failover")
                    half = len(steps) // 2
                    answers = [await session.step(s) for s in steps[:half]]
                    stop(kill=True)  # a crash: no final, no hand-back
                    _, stop = support.start_server(port=port, extra=flags + ["--replica-id", "py-b"])
                    answers += [await session.step(s) for s in steps[half:]]
                    await session.outcome(False)
                    final = await session.end()
                    return client.reconnects, session, answers, final
                finally:
                    await client.close()

            reconnects, session, answers, final = asyncio.run(run())
            self.assertEqual(reconnects, 1)
            self.assertEqual([[f["t"] for f in a] for a in answers], [[i] for i in range(len(steps))])
            self.assertEqual([f["t"] for f in session.scores], list(range(len(steps))))
            self.assertEqual(final["reason"], "end")
            self.assertEqual({k: final[k] for k in batch}, batch)
            # The new replica took the session over from Redis (it was not started again).
            self.assertEqual(metric(url, "steplens_sessions_rebuilt_total"), 1)
        finally:
            stop()
            stop_redis()


if __name__ == "__main__":
    unittest.main()
