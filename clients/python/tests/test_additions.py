"""Review s42 #4: "Additions are fine" (protocol.md), yet a frame of a new message type made the
Python client raise ``bad_frame`` in every pending call on the connection, though the server had
scored those steps. Unknown types are now ignored, and new enum values and fields accepted."""

import asyncio
import unittest

import support
from steplens_client import connect

ADDITIONS = {
    "a new message type": lambda f: [{"type": "notice", "message": "server will restart in 5 min"}],
    "a new signal kind": lambda f: [{"type": "signal", "session": f["session"], "seq": f["seq"], "t": f["t"], "kind": "tool_error",
                                     "severity": "warn", "steps": [f["t"]], "message": "a new kind"}],
    "a new error code": lambda f: [{"type": "error", "code": "rate_limited", "message": "a new code"}],
    "new fields and enum values in a known frame": lambda f: [{**f, "tier": "Heroic", "stage": "R", "confidence": 0.3}],
}


class AdditionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.upstream = support.server_url().replace("http", "ws", 1) + "/v1/stream"
        cls.steps = support.steplens_steps(support.ASTROID_FAIL)[:2]

    def _run(self, extra):
        injected = []

        def rewrite(frame):
            # Right after the first score frame: ``extra(frame)``, a newer server's frames.
            if injected or frame.get("type") != "score":
                return [frame]
            injected.append(True)
            return [frame, *extra(frame)]

        relay = support.rewriting_relay(self.upstream, rewrite)

        async def run():
            async with support.fake_server(relay) as url:
                async with await connect(url, reconnect=False) as client:
                    errors = []
                    client.on_error(errors.append)
                    a = await client.start(support.ASTROID_TASK)
                    b = await client.start(support.ASTROID_TASK)
                    answers = await asyncio.gather(a.step(self.steps[0]), b.step(self.steps[0]), a.step(self.steps[1]))
                    await client.ping()
                    finals = [(await a.end())["steps"], (await b.end())["steps"]]
                    return answers, finals, a.signals, errors

        return asyncio.run(run())

    def test_no_pending_call_fails_and_each_step_is_scored_once(self):
        for what, extra in ADDITIONS.items():
            with self.subTest(what):
                answers, finals, signals, errors = self._run(extra)
                self.assertEqual([[(f["seq"], f["t"]) for f in frames] for frames in answers], [[(0, 0)], [(0, 0)], [(1, 1)]])
                self.assertEqual(finals, [2, 1])
                if what == "a new signal kind":
                    self.assertIn("tool_error", [s["kind"] for s in signals])
                if what == "a new error code":
                    self.assertEqual([e.code for e in errors], ["rate_limited"])
                else:
                    self.assertEqual(errors, [])


if __name__ == "__main__":
    unittest.main()
