"""Streaming real corpus trajectories over the WebSocket: scores equal the batch score, resume
after a dropped socket, and clear errors. (What only a fake server can stage is in test_stream_fakes.py.)"""

import asyncio
import unittest

import support
from steplens_client import HttpClient, SteplensError, SyncClient, connect, events


class StreamTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.url = support.server_url()
        cls.http = HttpClient(cls.url)
        cls.doc = support.read_json(support.ASTROID_FAIL)
        cls.events = events(cls.doc)
        cls.batch = cls.http.score(support.ASTROID_TASK, cls.doc, passed=False)

    def test_step_by_step_equals_post_score(self):
        self.assertEqual(self.batch["reference"]["kind"], "pta")
        with SyncClient(self.url) as client:
            session = client.start(support.ASTROID_TASK, format="mini-swe-agent")
            self.assertEqual(session.reference, {"kind": "pta", "version": 1, "paths": 2})
            answered = []
            for seq, event in enumerate(self.events):
                frames = session.step(event)
                self.assertTrue(all(f["seq"] == seq for f in frames))
                answered.extend(frames)
            session.outcome(False)
            final = session.end()
        self.assertEqual([f["t"] for f in session.scores], list(range(self.batch["steps"])))
        self.assertEqual(answered, session.scores[:len(answered)])
        # the final is the batch report plus session fields (type, session, passed, reason, ...)
        self.assertEqual({k: final[k] for k in self.batch}, self.batch)
        self.assertEqual(session.scores[-1]["score"], self.batch["score"])

    def test_steplens_steps_equal_post_score(self):
        steps = support.steplens_steps(support.ASTROID_FAIL)
        with SyncClient(self.url) as client:
            session = client.start(support.ASTROID_TASK)
            for step in steps:
                self.assertEqual(len(session.step(step)), 1)
            final = session.end()
        self.assertEqual(final["score"], self.http.score(support.ASTROID_TASK, steps)["score"])
        self.assertEqual(final["score"], self.batch["score"])

    def test_swe_agent_traj_streamed_equals_post_score(self):
        task = "dask__dask-8685"  # bundled reference; this run (kimi-k2, RESOLVED) is one of its three
        doc = support.read_json(support.CORPUS / "christsakm__Trajectories/TODO/dask__dask-8685/trace_02_kimi-k2-instruct-0905/dask__dask-8685.traj")
        batch = self.http.score(task, doc)
        with SyncClient(self.url) as client:
            session = client.start(task, format="swe-agent")
            for event in events(doc):
                session.step(event)
            final = session.end()
        self.assertEqual(batch["reference"]["kind"], "pta")
        self.assertEqual((final["steps"], final["score"]), (batch["steps"], batch["score"]))

    def test_pipelined_sessions_on_one_socket(self):
        async def run():
            async with await connect(self.url) as client:
                sessions = [await client.start(support.ASTROID_TASK, format="mini-swe-agent") for _ in range(3)]
                await asyncio.gather(*(s.step(e) for s in sessions for e in self.events))
                return [await s.end() for s in sessions]
        finals = asyncio.run(run())
        self.assertEqual([f["score"] for f in finals], [self.batch["score"]] * 3)

    def test_resume_after_a_dropped_socket_mid_run(self):
        async def run():
            client = await connect(self.url)
            session = await client.start(support.ASTROID_TASK, format="mini-swe-agent")
            seen, drops = [], [10, 40]

            def on_score(frame):
                seen.append(frame["t"])
                # cut the TCP connection with steps in flight: at t >= 10, then at t >= 40 on the new socket
                # (frames the cut socket had already received are still delivered before it reports closed)
                done = 2 - len(drops)
                if drops and frame["t"] >= drops[0] and client.reconnects == done:
                    drops.pop(0)
                    client.socket.transport.abort()
            session.on_score(on_score)
            for i in range(0, len(self.events), 30):  # pipelined waves, so the second cut falls on the new socket
                await asyncio.gather(*(session.step(e) for e in self.events[i:i + 30]))
            final = await session.end()
            await client.close()
            return client.reconnects, seen, session.scores, final
        reconnects, seen, scores, final = asyncio.run(run())
        self.assertEqual(reconnects, 2)
        self.assertEqual(seen, list(range(self.batch["steps"])))
        self.assertEqual([f["t"] for f in scores], list(range(self.batch["steps"])))
        self.assertEqual(final["steps"], self.batch["steps"])
        self.assertEqual(final["score"], self.batch["score"])

    def test_resume_with_sync_client_between_steps(self):
        with SyncClient(self.url) as client:
            session = client.start(support.ASTROID_TASK, format="mini-swe-agent")
            for i, event in enumerate(self.events):
                if i in (7, 30):
                    client.drop_socket()
                session.step(event)
            final = session.end()
            self.assertEqual(client.reconnects, 2)
        self.assertEqual([f["t"] for f in session.scores], list(range(self.batch["steps"])))
        self.assertEqual(final["score"], self.batch["score"])

    def test_resume_a_session_from_another_connection(self):
        with SyncClient(self.url) as first:
            session = first.start(support.ASTROID_TASK, format="mini-swe-agent")
            half = len(self.events) // 2
            for event in self.events[:half]:
                session.step(event)
            sid, scored = session.id, len(session.scores)
        with SyncClient(self.url) as second:
            resumed = second.resume(sid)
            self.assertEqual(resumed.next_seq, half)
            self.assertEqual(len(resumed.scores), scored)
            for event in self.events[half:]:
                resumed.step(event)
            final = resumed.end()
        self.assertEqual(final["score"], self.batch["score"])

    def test_errors_name_what_is_wrong(self):
        with SyncClient(self.url) as client:
            with self.assertRaises(SteplensError) as e:
                client.resume("no-such-session")
            self.assertEqual(e.exception.code, "unknown_session")
            self.assertIn("no-such-session", str(e.exception))
            with self.assertRaises(SteplensError) as e:
                client.start(support.ASTROID_TASK, policy={"blindRetry": {"stop": "two"}})
            self.assertEqual(e.exception.code, "bad_message")
            self.assertIn("blindRetry", str(e.exception))
            with self.assertRaises(SteplensError) as e:
                client.start(support.ASTROID_TASK, format="nonesuch")
            self.assertIn("format", str(e.exception))
            session = client.start(support.ASTROID_TASK)
            with self.assertRaises(SteplensError) as e:
                session.step({"action": {"kind": "teleport"}})
            self.assertEqual((e.exception.code, e.exception.seq), ("bad_message", 0))
            self.assertEqual(len(session.step({"tool": "bash", "action": {"kind": "shell", "command": "ls"}})), 1)
            with self.assertRaises(SteplensError) as e:
                client.start(support.ASTROID_TASK, session=session.id)
            self.assertEqual(e.exception.code, "duplicate_session")
            session.end()
            with self.assertRaises(SteplensError) as e:
                session.step({"tool": "bash", "action": {"kind": "shell", "command": "ls"}})
            self.assertIn("has ended", str(e.exception))
        with self.assertRaises(SteplensError) as e:
            SyncClient("http://127.0.0.1:1", reconnect=False)
        self.assertEqual(e.exception.code, "unreachable")
        with self.assertRaises(SteplensError) as e:
            SyncClient("ftp://example.org")
        self.assertEqual(e.exception.code, "bad_url")


class ClosedAndEndedTest(unittest.TestCase):
    def test_sync_call_after_close_raises_closed(self):
        client = SyncClient(support.server_url(), reconnect=False)
        session = client.start(support.ASTROID_TASK)
        client.close()
        for call in (client.ping, session.end, lambda: session.step(support.steplens_steps(support.ASTROID_FAIL)[0])):
            with self.assertRaises(SteplensError) as raised:
                call()
            self.assertEqual(raised.exception.code, "closed")

    def test_resume_of_an_ended_session_returns_it_with_its_final(self):
        async def run():
            first = await connect(support.server_url(), reconnect=False)
            session = await first.start(support.ASTROID_TASK)
            await session.step(support.steplens_steps(support.ASTROID_FAIL)[0])
            final = await session.end()
            await first.close()
            second = await connect(support.server_url(), reconnect=False)
            try:
                again = await asyncio.wait_for(second.resume(session.id), 5)
            finally:
                await second.close()
            return final, again

        final, again = asyncio.run(run())
        self.assertEqual(again.final, final)
        self.assertEqual(len(again.scores), 1)


class NotJsonTest(unittest.TestCase):
    def test_nan_in_a_step_or_a_policy_is_refused_locally_and_the_session_goes_on(self):
        steps = support.steplens_steps(support.ASTROID_FAIL)
        with SyncClient(support.server_url(), reconnect=False) as client:
            with self.assertRaises(SteplensError) as refused_start:
                client.start(support.ASTROID_TASK, policy={"lowScore": {"floor": float("nan")}})
            self.assertEqual(refused_start.exception.code, "bad_input")
            session = client.start(support.ASTROID_TASK)
            self.assertEqual(len(session.step(steps[0])), 1)
            with self.assertRaises(SteplensError) as refused:
                session.step({**steps[1], "observation": float("nan")})
            self.assertEqual((refused.exception.code, refused.exception.seq), ("bad_input", 1))
            # The seq was not used: the next step is seq 1 and is scored.
            self.assertEqual([f["seq"] for f in session.step(steps[1])], [1])


if __name__ == "__main__":
    unittest.main()
