"""Steps pipelined after one the server refuses can only be refused ``out_of_order`` (their seq is past the expected
one). The client waited for those refusals, and each set its next seq back to the refused seq: when the caller had
meanwhile sent the run on from the refused seq (the usual thing to do on ``too_large``), a late refusal handed an
accepted seq out again, the next step went as a duplicate, was answered ``[]`` and its payload dropped (a final of 2
steps of 3). With reconnect after a 1009 close they were even sent again, to be refused again. They now raise
``out_of_order`` at once, naming the refused seq, are not sent again, and the server's late refusals are ignored
(as the TypeScript client since the merge of 740ad0e)."""

import asyncio
import json
import unittest

import support
from steplens_client import SteplensError, connect
from steplens_client.stream import Reconnect

LIMIT = 700
CLOSED = 8  # step 8 of the failing astroid run is over 8 x 700 bytes of JSON: the server closes the socket (1009)
REFUSED = 9  # step 9 is over 700 bytes and under 8 x 700: the server refuses it with an error frame (too_large)
SMALL = (24, 25)
NEXT = 36
#: Seconds a call may take here.
PATIENCE = 5.0


def pausing_relay(upstream: str, client_frames: list, pause: float):
    """A :func:`support.fake_server` handler in front of the real server at ``upstream``: client frames go up as they
    are (and are recorded in ``client_frames``); server frames come down as they are, but the one after a
    ``too_large`` error comes ``pause`` seconds late (a slow link), so the caller acts on that refusal before the rest."""
    next_wait = [0.0]

    def hold(text: str) -> float:
        wait, next_wait[0] = next_wait[0], (pause if json.loads(text).get("code") == "too_large" else 0.0)
        return wait

    return support.relay_handler(upstream, client_frames, hold)


class RefusedPipelineTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # One server for the two classes on a 700-byte limit (test_frame_close, test_refused_pipeline); their sessions are their own.
        cls.url = support.shared_server("--limit", f"maxFrameBytes={LIMIT}")
        cls.steps = support.steplens_steps(support.ASTROID_FAIL)
        sizes = {i: len(json.dumps(cls.steps[i])) for i in (CLOSED, REFUSED, *SMALL, NEXT)}
        assert sizes[CLOSED] > 8 * LIMIT and LIMIT < sizes[REFUSED] < 8 * LIMIT - 200, sizes
        assert all(sizes[i] < LIMIT - 200 for i in (*SMALL, NEXT)), sizes

    async def _pipeline(self, url: str, big: int, reconnect) -> None:
        """Pipelines the big step and two small ones, sends the small ones again as soon as the big one raises, then
        one more step: every accepted payload is scored once and the final covers the three."""
        async with await connect(url, reconnect=reconnect) as client:
            unattributed = []
            client.on_error(unattributed.append)
            session = await client.start(support.ASTROID_TASK)
            refused = asyncio.ensure_future(session.step(self.steps[big]))
            stale = [asyncio.ensure_future(session.step(self.steps[i])) for i in SMALL]
            with self.assertRaises(SteplensError) as error:
                await asyncio.wait_for(refused, PATIENCE)
            self.assertEqual((error.exception.code, error.exception.seq), ("too_large", 0))
            # At once: the steps after it raised with the refused one, not once the server refused them too.
            self.assertEqual([t.done() for t in stale], [True, True])
            self.assertEqual(session.next_seq, 0)
            again = [asyncio.ensure_future(session.step(self.steps[i])) for i in SMALL]
            errors = await asyncio.wait_for(asyncio.gather(*stale, return_exceptions=True), PATIENCE)
            self.assertEqual([(e.code, e.session, e.seq) for e in errors], [("out_of_order", session.id, 1), ("out_of_order", session.id, 2)])
            for e, seq in zip(errors, (1, 2)):
                self.assertRegex(e.message, rf"^step {seq} follows step 0, which the server refused")
            answers = await asyncio.wait_for(asyncio.gather(*again), PATIENCE)
            self.assertEqual([[(f["seq"], f["t"]) for f in a] for a in answers], [[(0, 0)], [(1, 1)]])
            # Before, a late out_of_order for the first seq 1 set the next seq back to 1: this step went as a duplicate.
            self.assertEqual([(f["seq"], f["t"]) for f in await asyncio.wait_for(session.step(self.steps[NEXT]), PATIENCE)], [(2, 2)])
            self.assertEqual([(f["seq"], f["t"]) for f in session.scores], [(0, 0), (1, 1), (2, 2)])
            self.assertEqual((await asyncio.wait_for(session.end(), PATIENCE))["steps"], 3)
            self.assertEqual(unattributed, [])
            return client.reconnects

    def test_after_a_step_the_server_closed_the_socket_over_the_rest_raise_and_are_not_sent_again(self):
        reconnects = asyncio.run(self._pipeline(self.url, CLOSED, Reconnect(retries=3, delay=0.02)))
        self.assertEqual(reconnects, 1)

    def test_after_a_refused_step_the_late_refusals_of_the_rest_are_ignored(self):
        upstream = self.url.replace("http", "ws", 1) + "/v1/stream"
        client_frames: list = []

        async def run():
            async with support.fake_server(pausing_relay(upstream, client_frames, 0.3)) as url:
                await self._pipeline(url, REFUSED, reconnect=False)

        asyncio.run(run())
        # Each small step was sent twice: pipelined behind the refused one, then by the caller; never a third time.
        self.assertEqual([m["seq"] for m in client_frames if m["type"] == "step"], [0, 1, 2, 0, 1, 2])

    def test_without_a_slow_link_the_same(self):
        asyncio.run(self._pipeline(self.url, REFUSED, reconnect=False))


if __name__ == "__main__":
    unittest.main()
