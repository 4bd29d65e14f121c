"""Reward functions on batches past the server's limits (review s43): ``step_rewards_many`` past the 64
sessions one connection may hold (finding 3), ``TrlReward`` / ``VerlReward.batch`` past 1,024 items or
the body limit, and a body cut off while sent (finding 4), and ``VerlReward(per_step=True)``'s step
rewards on the scale of its score (finding 5)."""

import gc
import json
import logging
import math
import shutil
import socket
import tempfile
import threading
import unittest
import uuid

import support
from steplens_client import HttpClient, SteplensError, TrlReward, VerlReward, step_rewards, step_rewards_many


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record)


def asyncio_errors(run):
    """The ``asyncio`` logger's records while ``run()`` runs and its leftovers are collected (a Future or Task
    whose exception nobody read logs "exception was never retrieved" when it is freed)."""
    handler, logger = _Records(), logging.getLogger("asyncio")
    logger.addHandler(handler)
    try:
        try:
            result = run()
        finally:
            gc.collect()
    finally:
        logger.removeHandler(handler)
    return result, [r.getMessage() for r in handler.records]


#: A server with low limits, started once for this module: 3 sessions per connection, bodies of 1 MiB.
_limited = {}


def limited_server():
    if "url" not in _limited:
        _limited["data"] = tempfile.mkdtemp(prefix="steplens-py-limits-")
        _limited["url"], _limited["stop"] = support.start_server(
            data=_limited["data"], extra=["--limit", "sessionsPerConnection=3", "--limit", f"maxBodyBytes={1024 * 1024}"])
    return _limited["url"]


def tearDownModule():
    if "stop" in _limited:
        _limited["stop"]()
        shutil.rmtree(_limited["data"], ignore_errors=True)


class StepRewardsManyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.url = support.server_url()
        cls.http = HttpClient(cls.url)
        cls.steps = support.steplens_steps(support.ASTROID_FAIL)[:3]
        cls.one = step_rewards(cls.url, support.ASTROID_TASK, cls.steps, format="steplens")

    def items(self, n, task=support.ASTROID_TASK, bad=()):
        # A step without an action: the server refuses it (bad_message, its seq named) mid-stream.
        return [{"task": task, "trajectory": [{"tool": "bash"}] if i in bad else self.steps, "format": "steplens"} for i in range(n)]

    def open_sessions(self, task):
        out, after = [], None
        while True:
            page = self.http.request("GET", "/v1/sessions?limit=500" + (f"&after={after}" if after else ""))
            out += [s for s in page["sessions"] if s["task"] == task and "endedAt" not in s]
            after = page.get("next")
            if after is None:
                return out

    def test_more_items_than_the_sessions_one_connection_may_hold(self):
        # The server holds 64 sessions per connection; 65 items used to fail as a whole with overloaded.
        got, errors = asyncio_errors(lambda: step_rewards_many(self.url, self.items(65)))
        self.assertEqual(got, [self.one] * 65)
        self.assertEqual(len(self.one), 3)
        self.assertEqual(errors, [])

    def test_a_failed_item_raises_after_the_others_ended_their_sessions(self):
        task = f"py-many-{uuid.uuid4()}"
        for bad in ({40}, {3, 50}):
            def run():
                with self.assertRaises(SteplensError) as e:
                    step_rewards_many(self.url, self.items(70, task=task, bad=bad))
                return e.exception
            error, logged = asyncio_errors(run)
            self.assertEqual((error.code, error.seq), ("bad_message", 0))
            # The review's stderr flood (1,146 "exception was never retrieved"): nothing is left unread.
            self.assertEqual(logged, [])
            self.assertEqual(self.open_sessions(task), [])  # every session it opened is ended

    def test_on_error_return_keeps_the_other_items(self):
        got = step_rewards_many(self.url, self.items(66, bad={0, 65}) + [{"task": support.ASTROID_TASK, "trajectory": "not a log"}],
                                on_error="return")
        self.assertEqual(got[1:65], [self.one] * 64)
        self.assertEqual([(e.code, e.seq) for e in (got[0], got[65])], [("bad_message", 0)] * 2)
        self.assertEqual(got[66].code, "bad_input")
        with self.assertRaises(SteplensError):
            step_rewards_many(self.url, self.items(1), on_error="nan")
        with self.assertRaises(SteplensError):
            step_rewards_many(self.url, self.items(1), concurrency=0)

    def test_concurrency_stays_below_a_lower_per_connection_cap(self):
        url = limited_server()  # 3 sessions per connection
        self.assertEqual(step_rewards_many(url, self.items(8), concurrency=3), [self.one] * 8)
        over = step_rewards_many(url, self.items(8), concurrency=5, on_error="return")
        self.assertIn("overloaded", [e.code for e in over if isinstance(e, SteplensError)])


class BatchLimitsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.url = support.server_url()
        cls.http = HttpClient(cls.url)
        cls.texts = [p.read_text(encoding="utf-8") for p in [support.ASTROID_FAIL, *support.ASTROID_PASS]]
        cls.totals = [cls.http.score(support.ASTROID_TASK, t)["score"]["total"] * 0.01 for t in cls.texts]

    def test_more_completions_than_one_batch_call_takes(self):
        # The server takes 1,024 items per /v1/score/batch; 1,025 used to raise bad_message even with on_error="nan".
        steps = support.steplens_steps(support.ASTROID_FAIL)[:2]
        text = "\n".join(json.dumps(s) for s in steps)
        expected = self.http.score(support.ASTROID_TASK, steps)["score"]["total"] * 0.01
        calls = []
        reward = TrlReward(self.url, on_error="nan")
        batch = reward.http.score_batch
        reward.http.score_batch = lambda items, **kw: calls.append(len(items)) or batch(items, **kw)
        got = reward([None] * 1025, [text] * 1025, task=[support.ASTROID_TASK] * 1025)
        self.assertEqual(calls, [1024, 1])
        self.assertEqual(got, [expected] * 1025)

    def test_batches_stay_within_a_byte_budget_below_the_body_limit(self):
        # A server whose body limit (1 MiB) these runs (~360 KB each) exceed together but not one by one.
        url = limited_server()
        n = 4
        texts, tasks = (self.texts * 2)[:n], [support.ASTROID_TASK] * n
        expected = (self.totals * 2)[:n]
        self.assertEqual(TrlReward(url, batch_bytes=900_000)([None] * n, texts, task=tasks), expected)
        self.assertEqual(VerlReward(url, batch_bytes=900_000).batch(["d"] * n, texts, tasks), expected)
        # The default budget (32 MiB) is above this server's limit: the refused batch gets on_error, it does not raise.
        over = TrlReward(url, on_error="nan")([None] * n, texts, task=tasks)
        self.assertTrue(all(math.isnan(x) for x in over))
        with self.assertRaises(SteplensError) as e:
            TrlReward(url)([None] * n, texts, task=tasks)
        self.assertEqual(e.exception.code, "too_large")

    def test_errors_about_the_server_itself_still_raise(self):
        with socket.socket() as s:  # a port nobody listens on
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        with self.assertRaises(SteplensError) as e:
            TrlReward(f"http://127.0.0.1:{port}", on_error="nan")([None], self.texts[:1], task=[support.ASTROID_TASK])
        self.assertEqual(e.exception.code, "unreachable")
        with self.assertRaises(SteplensError):
            TrlReward(self.url, batch_items=1025)

    def test_a_body_cut_off_while_sent_is_not_unreachable(self):
        # A server that answers the headers of a body over its limit and closes without reading it (what
        # steplens does past its drain bound): the client used to report `unreachable: Broken pipe`.
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)

        def refuse_unread():
            conn, _ = listener.accept()
            head = b""
            while b"\r\n\r\n" not in head:
                head += conn.recv(4096)
            conn.sendall(b"HTTP/1.1 413 Payload Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # RST: unread data
            conn.close()

        server = threading.Thread(target=refuse_unread, daemon=True)
        server.start()
        try:
            with self.assertRaises(SteplensError) as e:
                HttpClient(f"http://127.0.0.1:{listener.getsockname()[1]}").request("POST", "/v1/score/batch", {"items": ["x" * (32 * 1024 * 1024)]})
        finally:
            server.join(10)
            listener.close()
        self.assertNotEqual(e.exception.code, "unreachable", str(e.exception))
        if e.exception.status != 413:  # the answer was lost with the connection
            self.assertEqual(e.exception.code, "disconnected")
            self.assertIn("over the server's size limit", str(e.exception))
            self.assertIn("or the connection was cut", str(e.exception))

    def test_a_body_the_server_stops_reading_is_a_timeout_not_unreachable(self):
        # A server that took the connection and hangs (stopped, stuck): it reads nothing, so sending a large body
        # blocks until the timeout. urllib wraps that as it wraps a refused connect; the client reported
        # `unreachable: cannot reach ...: timed out`, which says the server was never reached.
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)  # the kernel completes the handshake; nobody accepts nor reads
        try:
            with self.assertRaises(SteplensError) as e:
                HttpClient(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=1).request(
                    "POST", "/v1/score/batch", {"items": ["x" * (32 * 1024 * 1024)]})
        finally:
            listener.close()
        self.assertEqual(e.exception.code, "timeout", str(e.exception))
        self.assertIn("POST /v1/score/batch", str(e.exception))
        self.assertIn("within 1 s", str(e.exception))


class PerStepScaleTest(unittest.TestCase):
    def test_step_rewards_are_on_the_scale_of_the_score(self):
        url = support.server_url()
        text = support.ASTROID_FAIL.read_text(encoding="utf-8")
        raw = step_rewards(url, support.ASTROID_TASK, text)
        report = HttpClient(url).score(support.ASTROID_TASK, text)
        for scale in (0.01, 1.0):
            got = VerlReward(url, per_step=True, scale=scale)("d", text, support.ASTROID_TASK)
            self.assertEqual(got["score"], report["score"]["total"] * scale)
            self.assertEqual(got["step_rewards"], [r * scale for r in raw])
            # The rewards are the composite's increments (rounded like it): they sum to the score.
            self.assertAlmostEqual(sum(got["step_rewards"]), got["score"], delta=0.01 * scale * len(raw))
            self.assertEqual({k: got[k] for k in ("struct", "cov", "coh", "temp")}, {k: report["score"][k] for k in ("struct", "cov", "coh", "temp")})
        self.assertTrue(0 <= got["coh"] <= 1 and 0 <= got["temp"] <= 1 and 0 <= got["struct"] <= 100 and 0 <= got["cov"] <= 100)


if __name__ == "__main__":
    unittest.main()
