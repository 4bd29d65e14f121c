"""A step whose caller timed out was sent and is scored by the server: the ``timeout`` names its session
and seq, and sending the same payload again gets that step's answer instead of scoring it twice (review
s43, finding 2: 60 payloads with retries on timeout were 67 scored steps)."""

import asyncio
import contextlib
import threading
import unittest

import support
from steplens_client import HttpClient, SteplensError, StepHook, SyncClient, connect, make_step
from steplens_client.socket import stream_url


@contextlib.contextmanager
def delaying_relay(upstream: str):
    """A relay in front of the real server at ``upstream``, on its own thread (the blocking client blocks this
    one): client frames go up at once and are recorded in ``log``; server frames come down ``hold[0]`` seconds
    late (a slow server). Yields ``(url, log, hold)``."""
    import websockets

    log, hold = [], [0.0]
    ready, stop = threading.Event(), None
    box = {}

    relay = support.relay_handler(stream_url(upstream), log, lambda text: hold[0])

    async def main():
        nonlocal stop
        stop = asyncio.Event()
        async with websockets.serve(relay, "127.0.0.1", 0, close_timeout=0.5) as server:
            box["url"] = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1/stream"
            box["loop"] = asyncio.get_running_loop()
            ready.set()
            await stop.wait()

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield box["url"], log, hold
    finally:
        box["loop"].call_soon_threadsafe(stop.set)
        thread.join(10)


def steps_sent(log, session):
    return [m["seq"] for m in log if m.get("type") == "step" and m.get("session") == session]


class StepRetryTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.url = support.server_url()
        cls.steps = support.steplens_steps(support.ASTROID_FAIL)[:4]
        cls.expected = HttpClient(cls.url).score(support.ASTROID_TASK, cls.steps)

    def test_sync_step_timeout_names_its_seq_and_a_retry_scores_it_once(self):
        with delaying_relay(self.url) as (relay, log, hold):
            with SyncClient(relay, timeout=5, reconnect=False) as client:
                session = client.start(support.ASTROID_TASK)
                self.assertEqual(session.step(self.steps[0])[0]["seq"], 0)
                client.timeout, hold[0] = 0.2, 0.6
                with self.assertRaises(SteplensError) as timed_out:
                    session.step(self.steps[1])
                self.assertEqual((timed_out.exception.code, timed_out.exception.session, timed_out.exception.seq), ("timeout", session.id, 1))
                self.assertIn("same payload", timed_out.exception.message)
                client.timeout, hold[0] = 5, 0.0
                retried = session.step(self.steps[1])  # the retry: its answer, not a new seq
                self.assertEqual([(f["seq"], f["t"]) for f in retried], [(1, 1)])
                self.assertEqual(session.next_seq, 2)
                for step in self.steps[2:]:
                    session.step(step)
                final = session.end()
            self.assertEqual(steps_sent(log, session.id), [0, 1, 2, 3])  # each step sent once
        self.assertEqual((final["steps"], final["score"]), (self.expected["steps"], self.expected["score"]))

    def test_sync_start_timeout_names_the_session_it_gave_up(self):
        with delaying_relay(self.url) as (relay, log, hold):
            with SyncClient(relay, timeout=5, reconnect=False) as client:
                client.timeout, hold[0] = 0.2, 0.6
                with self.assertRaises(SteplensError) as timed_out:
                    client.start(support.ASTROID_TASK)
                e = timed_out.exception
                sent = [m["session"] for m in log if m.get("type") == "start"]
                self.assertEqual((e.code, [e.session]), ("timeout", sent))
                self.assertTrue(e.message.startswith("no started within 0.2 s: given up here"), e.message)
                client.timeout, hold[0] = 5, 0.0
                client.ping()  # the late started has come, and was ignored
                self.assertNotIn(e.session, client.client._sessions)
                with self.assertRaises(SteplensError) as again:  # the server opened it late: the id is taken
                    client.start(support.ASTROID_TASK, session=e.session)
                self.assertEqual(again.exception.code, "duplicate_session")
                session = client.start(support.ASTROID_TASK, session="py-named-start")
                self.assertEqual(session.id, "py-named-start")
                session.end()

    def test_another_payload_after_a_timeout_gets_the_next_seq(self):
        with delaying_relay(self.url) as (relay, log, hold):
            with SyncClient(relay, timeout=5, reconnect=False) as client:
                session = client.start(support.ASTROID_TASK)
                client.timeout, hold[0] = 0.2, 0.6
                with self.assertRaises(SteplensError) as timed_out:
                    session.step(self.steps[0])
                self.assertEqual(timed_out.exception.seq, 0)
                client.timeout, hold[0] = 5, 0.0
                # The caller moved on: the step that timed out stands as sent (seq 0), this one is seq 1.
                self.assertEqual([f["seq"] for f in session.step(self.steps[1])], [1])
                final = session.end()
            self.assertEqual(steps_sent(log, session.id), [0, 1])
        self.assertEqual(final["steps"], 2)

    def test_step_hook_retry_returns_the_decision_of_the_step_that_timed_out(self):
        with delaying_relay(self.url) as (relay, log, hold):
            client = SyncClient(relay, timeout=5, reconnect=False)
            with StepHook(relay, support.ASTROID_TASK, client=client) as hook:
                step = self.steps[0]
                args = dict(exit_code=step.get("exitCode"), tool=step["tool"], args=step.get("args"), thought=step.get("thought"))
                client.timeout, hold[0] = 0.2, 0.6
                with self.assertRaises(SteplensError) as timed_out:
                    hook.step(step["action"], step.get("observation"), **args)
                self.assertEqual((timed_out.exception.session, timed_out.exception.seq), (hook.session.id, 0))
                client.timeout, hold[0] = 5, 0.0
                decision = hook.step(step["action"], step.get("observation"), **args)
                self.assertEqual((decision.seq, [f["t"] for f in decision.frames]), (0, [0]))
                self.assertEqual(decision.reward, decision.frames[0]["reward"])
                final = hook.finish()
            client.close()
            self.assertEqual(steps_sent(log, hook.session.id), [0])
        self.assertEqual(final["steps"], 1)

    def test_async_step_cancelled_by_wait_for_is_retried_once(self):
        async def run(relay, hold):
            async with await connect(relay, reconnect=False) as client:
                session = await client.start(support.ASTROID_TASK)
                hold[0] = 0.6
                with self.assertRaises(asyncio.TimeoutError):
                    await asyncio.wait_for(session.step(self.steps[0]), 0.2)
                hold[0] = 0.0
                again = await asyncio.wait_for(session.step(self.steps[0]), 5)
                final = await session.end()
                return session.id, again, final

        with delaying_relay(self.url) as (relay, log, hold):
            sid, again, final = asyncio.run(run(relay, hold))
            self.assertEqual(steps_sent(log, sid), [0])
        self.assertEqual([f["seq"] for f in again], [0])
        self.assertEqual(final["steps"], 1)

    def test_retrying_every_timeout_of_a_too_short_timeout_scores_each_step_once(self):
        # The review's repro: a client timeout far below the round trip; the caller retries each step until answered.
        steps = [make_step(f"grep -rn sym{i} astroid/", "hit", exit_code=0) for i in range(30)]
        timeouts = 0
        with SyncClient(self.url, timeout=5) as client:
            session = client.start(support.ASTROID_TASK)
            client.timeout = 0.001
            for step in steps:
                for _ in range(10_000):
                    try:
                        session.step(step)
                        break
                    except SteplensError as e:
                        self.assertEqual((e.code, e.session), ("timeout", session.id))
                        timeouts += 1
            client.timeout = 5
            final = session.end()
        self.assertEqual((final["steps"], session.next_seq), (30, 30), f"{timeouts} timeouts")


if __name__ == "__main__":
    unittest.main()
