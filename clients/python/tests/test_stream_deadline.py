"""T63: the asyncio client's ``timeout`` (``connect(timeout=)``), as the TypeScript client's ``timeoutMs``
(test/client/timeout.test.ts). A relay in front of the real server holds the client's messages (a server that answers
the socket's pings and no frame), then lets them through: the calls raised ``timeout`` naming what waited, and the late
answers still land where the client keeps them, with nothing sent twice. Each call is also bounded by the test's own
``asyncio.wait_for`` (20 s): without the client's deadline it fails there instead of hanging."""

import asyncio
import contextlib
import json
import math
import unittest

import websockets

import support
from steplens_client import SteplensError, SyncClient, connect
from steplens_client.deadline import DEFAULT_TIMEOUT, timeout_option
from steplens_client.socket import stream_url

#: The client's deadline in these tests (seconds), and the test's own bound on each call.
DEADLINE = 1.0
GUARD = 20


@contextlib.asynccontextmanager
async def silent_relay(upstream: str):
    """A relay to the real server whose client messages wait while ``hold["on"]``: yields ``(url, hold, held)``,
    ``held`` the parsed messages kept back (``release`` sends them on, in order)."""
    hold, held = {"on": False}, []

    async def relay(down, *_):
        async with websockets.connect(upstream) as up:

            async def pump():
                async for text in up:
                    await down.send(text)

            task = asyncio.ensure_future(pump())
            try:
                async for text in down:
                    if hold["on"]:
                        held.append((json.loads(text), text, up))
                    else:
                        await up.send(text)
            finally:
                task.cancel()

    async with support.fake_server(relay) as url:
        yield url, hold, held


async def release(hold, held):
    hold["on"] = False
    for _, text, up in held[:]:
        await up.send(text)
    held.clear()


def held_of(held, kind):
    return [m for m, _, _ in held if m["type"] == kind]


async def eventually(check, seconds=10.0):
    """Waits (polling) until ``check()`` is true."""
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not within 10 s")


class StreamDeadlineTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.upstream = stream_url(support.server_url())
        cls.steps = support.steplens_steps(support.ASTROID_FAIL)[:3]

    def run_relay(self, body):
        async def run():
            async with silent_relay(self.upstream) as (url, hold, held):
                client = await connect(url, reconnect=False, timeout=DEADLINE)
                try:
                    return await body(client, hold, held)
                finally:
                    await client.close()

        return asyncio.run(run())

    def test_a_start_not_answered_raises_timeout_and_gives_its_id_up(self):
        async def body(client, hold, held):
            hold["on"] = True
            with self.assertRaises(SteplensError) as late:
                await asyncio.wait_for(client.start(support.ASTROID_TASK, session="py-held-start"), GUARD)
            e = late.exception
            self.assertEqual((e.code, e.session), ("timeout", "py-held-start"))
            self.assertTrue(e.message.startswith(f"no started within {DEADLINE} s for session py-held-start"), e.message)
            await release(hold, held)
            await asyncio.wait_for(client.ping(), GUARD)  # the late started has come, and was ignored
            self.assertNotIn("py-held-start", client._sessions)
            # The client gave the id up, so the server is the one to refuse it now: it opened the session late.
            with self.assertRaises(SteplensError) as again:
                await asyncio.wait_for(client.start(support.ASTROID_TASK, session="py-held-start"), GUARD)
            self.assertEqual(again.exception.code, "duplicate_session")

        self.run_relay(body)

    def test_a_step_and_a_ping_not_answered_raise_timeout_the_step_stays_in_flight(self):
        async def body(client, hold, held):
            session = await asyncio.wait_for(client.start(support.ASTROID_TASK), GUARD)
            seen = []
            session.on_score(lambda f: seen.append(f["seq"]))
            hold["on"] = True
            step, pong = await asyncio.gather(asyncio.wait_for(session.step(self.steps[0]), GUARD),
                                              asyncio.wait_for(client.ping(), GUARD), return_exceptions=True)
            self.assertIsInstance(step, SteplensError)
            self.assertEqual((step.code, step.session, step.seq), ("timeout", session.id, 0))
            self.assertTrue(step.message.startswith(f"no answer within {DEADLINE} s to step 0, which was sent and may be scored"), step.message)
            self.assertIsInstance(pong, SteplensError)
            self.assertEqual((pong.code, pong.message), ("timeout", f"no pong within {DEADLINE} s"))
            self.assertEqual(len(held_of(held, "step")), 1)
            await release(hold, held)
            await eventually(lambda: len(session.scores) == 1)
            self.assertEqual(seen, [0])
            # Another payload: the caller moved on, the step that timed out stands as sent, this one takes the next seq.
            nxt = await asyncio.wait_for(session.step(self.steps[1]), GUARD)
            self.assertEqual([f["seq"] for f in nxt], [1])
            self.assertEqual([f["t"] for f in session.scores], [0, 1])

        self.run_relay(body)

    def test_a_step_retried_after_its_timeout_gets_its_answer_and_is_sent_once(self):
        async def body(client, hold, held):
            session = await asyncio.wait_for(client.start(support.ASTROID_TASK), GUARD)
            hold["on"] = True
            with self.assertRaises(SteplensError) as late:
                await asyncio.wait_for(session.step(self.steps[0]), GUARD)
            self.assertEqual((late.exception.code, late.exception.seq), ("timeout", 0))
            retry = asyncio.ensure_future(session.step(self.steps[0]))
            await asyncio.sleep(0.05)
            self.assertEqual(len(held_of(held, "step")), 1)  # the retry sent nothing new
            await release(hold, held)
            frames = await asyncio.wait_for(retry, GUARD)
            self.assertEqual([(f["seq"], f["t"]) for f in frames], [(0, 0)])
            self.assertEqual(session.next_seq, 1)

        self.run_relay(body)

    def test_an_end_not_answered_raises_timeout_and_end_again_waits_for_the_same_end_sent_once(self):
        async def body(client, hold, held):
            session = await asyncio.wait_for(client.start(support.ASTROID_TASK), GUARD)
            await asyncio.wait_for(session.step(self.steps[0]), GUARD)
            hold["on"] = True
            with self.assertRaises(SteplensError) as late:
                await asyncio.wait_for(session.end(), GUARD)
            e = late.exception
            self.assertEqual((e.code, e.session), ("timeout", session.id))
            self.assertTrue(e.message.startswith(f"no final within {DEADLINE} s"), e.message)
            again = asyncio.ensure_future(session.end())
            await asyncio.sleep(0.05)
            self.assertEqual(len(held_of(held, "end")), 1)
            await release(hold, held)
            final = await asyncio.wait_for(again, GUARD)
            self.assertEqual((final["type"], final["steps"]), ("final", 1))
            self.assertIs(session.final, final)

        self.run_relay(body)

    def test_timeout_is_checked_120_s_by_default_0_or_none_for_no_deadline(self):
        self.assertEqual(DEFAULT_TIMEOUT, 120.0)
        self.assertEqual((timeout_option(None), timeout_option(0), timeout_option(2)), (None, None, 2.0))
        for bad in (-1, math.nan, math.inf, "5", True):
            with self.assertRaises(ValueError) as refused:
                asyncio.run(connect(support.server_url(), timeout=bad))
            self.assertTrue(str(refused.exception).startswith("connect: timeout must be a number of seconds, 0 or more"), refused.exception)

        async def default():
            client = await connect(support.server_url())
            try:
                return client.timeout
            finally:
                await client.close()

        self.assertEqual(asyncio.run(default()), DEFAULT_TIMEOUT)
        # The blocking client keeps its own deadline (``client.timeout``, changed at will): its async client has none.
        with SyncClient(support.server_url(), timeout=7) as sync:
            self.assertEqual((sync.timeout, sync.client.timeout), (7, None))


if __name__ == "__main__":
    unittest.main()
