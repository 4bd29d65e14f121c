"""A step or a start over 8x the server's frame limit is not refused with an ``error`` frame: the server's
WebSocket layer closes the socket with 1009. The client took that for any drop: it reconnected, sent the
frame again, was closed again, for good, and the call never returned (without reconnect it raised
``disconnected``). The call now raises ``too_large`` naming the step's seq or the start's session, the
frame is not sent again, and the client's other steps and sessions go on (as the TypeScript client)."""

import asyncio
import json
import shutil
import tempfile
import unittest
from urllib.parse import urlparse

import support
from steplens_client import SteplensError, connect
from steplens_client.stream import Reconnect

LIMIT = 700
BIG = 8  # step 8 of the failing astroid run is over 8 x 700 bytes of JSON; steps 24 and 25 are under 700
SMALL = (24, 25)
#: Seconds a call may take here: the old client never returned from these.
PATIENCE = 5.0


def huge_policy() -> dict:
    """A policy whose start frame is over 8x the limit (the server never reads it, so its content does not matter)."""
    return {"padding": "x" * (8 * LIMIT)}


class FrameCloseTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # One server for the two classes on a 700-byte limit (test_frame_close, test_refused_pipeline); their sessions are their own.
        cls.url = support.shared_server("--limit", f"maxFrameBytes={LIMIT}")
        cls.steps = support.steplens_steps(support.ASTROID_FAIL)
        assert len(json.dumps(cls.steps[BIG])) > 8 * LIMIT and all(len(json.dumps(cls.steps[i])) < LIMIT - 200 for i in SMALL)

    async def _refused(self, call) -> SteplensError:
        with self.assertRaises(SteplensError) as refused:
            await asyncio.wait_for(call, PATIENCE)
        return refused.exception

    def test_a_step_the_server_closed_the_socket_over_raises_too_large_and_the_rest_goes_on(self):
        async def run():
            async with await connect(self.url, reconnect=Reconnect(retries=3, delay=0.02)) as client:
                a, b = await client.start(support.ASTROID_TASK), await client.start(support.ASTROID_TASK)
                self.assertEqual([f["seq"] for f in await b.step(self.steps[SMALL[0]])], [0])
                error = await self._refused(a.step(self.steps[BIG]))
                self.assertEqual((error.code, error.session, error.seq), ("too_large", a.id, 0))
                self.assertRegex(error.message, r"^step 0 of session .*over the server's limit .*1009")
                # Not sent again: its seq goes to the next step, sent once the client has reconnected.
                self.assertEqual([(f["seq"], f["t"]) for f in await asyncio.wait_for(a.step(self.steps[SMALL[0]]), PATIENCE)], [(0, 0)])
                self.assertEqual([(f["seq"], f["t"]) for f in await b.step(self.steps[SMALL[1]])], [(1, 1)])
                self.assertEqual(client.reconnects, 1)
                self.assertEqual((await a.end())["steps"], 1)
                self.assertEqual((await b.end())["steps"], 2)

        asyncio.run(run())

    def test_a_start_the_server_closed_the_socket_over_raises_too_large_and_keeps_nothing(self):
        async def run():
            async with await connect(self.url, reconnect=Reconnect(retries=3, delay=0.02)) as client:
                other = await client.start(support.ASTROID_TASK)
                self.assertEqual([f["seq"] for f in await other.step(self.steps[SMALL[0]])], [0])
                error = await self._refused(client.start(support.ASTROID_TASK, session="huge", policy=huge_policy()))
                self.assertEqual((error.code, error.session, error.seq), ("too_large", "huge", None))
                self.assertRegex(error.message, r"^start of session huge: .*over the server's limit .*1009")
                # Nothing of it was kept: the id starts afresh, its first step is step 0.
                again = await asyncio.wait_for(client.start(support.ASTROID_TASK, session="huge"), PATIENCE)
                self.assertEqual([(f["seq"], f["t"]) for f in await again.step(self.steps[SMALL[0]])], [(0, 0)])
                self.assertEqual([(f["seq"], f["t"]) for f in await other.step(self.steps[SMALL[1]])], [(1, 1)])
                self.assertEqual(client.reconnects, 1)
                self.assertEqual((await again.end())["steps"], 1)
                self.assertEqual((await other.end())["steps"], 2)

        asyncio.run(run())

    def test_without_reconnect_the_call_raises_too_large_and_the_rest_disconnected(self):
        async def run():
            async with await connect(self.url, reconnect=False) as client:
                session = await client.start(support.ASTROID_TASK)
                error = await self._refused(session.step(self.steps[BIG]))
                self.assertEqual((error.code, error.seq), ("too_large", 0))
                self.assertEqual((await self._refused(session.step(self.steps[SMALL[0]]))).code, "disconnected")
            async with await connect(self.url, reconnect=False) as client:
                other = await client.start(support.ASTROID_TASK)
                error = await self._refused(client.start(support.ASTROID_TASK, session="huge", policy=huge_policy()))
                self.assertEqual((error.code, error.session), ("too_large", "huge"))
                self.assertEqual((await self._refused(other.step(self.steps[SMALL[0]]))).code, "disconnected")

        asyncio.run(run())

    def test_a_restarted_server_with_a_lower_limit_closing_over_a_step_sent_again_loses_that_session(self):
        data = tempfile.mkdtemp(prefix="steplens-py-")
        url, stop = support.start_server(data=data)

        async def run():
            nonlocal stop
            async with await connect(url, reconnect=Reconnect(retries=10, delay=0.05)) as client:
                a, b = await client.start(support.ASTROID_TASK), await client.start(support.ASTROID_TASK)
                for i in (*SMALL, BIG):
                    await a.step(self.steps[i])
                await b.step(self.steps[SMALL[0]])
                stop()
                _, stop = support.start_server(port=urlparse(url).port, data=data, extra=["--limit", f"maxFrameBytes={LIMIT}"])
                # Resumed, unknown to the new server, started again: its step 2 sent again is over 8x the new limit.
                error = await self._refused(a.step(self.steps[SMALL[0]]))
                self.assertEqual((error.code, error.session), ("too_large", a.id))
                self.assertRegex(error.message, r"^step 2 of session .* restarted server\): .*1009")
                self.assertIs(a.lost, error)
                self.assertEqual([(f["seq"], f["t"]) for f in await asyncio.wait_for(b.step(self.steps[SMALL[1]]), PATIENCE)], [(1, 1)])
                self.assertEqual((await b.end())["steps"], 2)

        try:
            asyncio.run(run())
        finally:
            stop()
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
