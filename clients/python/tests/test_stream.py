"""Streaming real corpus trajectories over the WebSocket: scores equal the batch score, resume
after a dropped socket, and clear errors."""

import asyncio
import json
import subprocess
import sys
import unittest

import websockets

import support
from steplens_client import HttpClient, Reconnect, SteplensError, SyncClient, connect, events


def started(m, reference):
    """A fake server's answer to the client's ``start`` message ``m``: its session started on task "t"."""
    return {"type": "started", "session": m["session"], "task": "t", "format": "steplens", "reference": reference}


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


if __name__ == "__main__":
    unittest.main()


class RefusedEndTest(unittest.TestCase):
    """An ``end`` the server refuses (the shared store unreachable) rejects ``end()`` instead of waiting for good."""

    def test_refused_end_raises_and_a_later_end_sends_it_again(self):
        real = HttpClient(support.server_url())
        final = real.score(support.ASTROID_TASK, support.read_json(support.ASTROID_FAIL))
        ends = []

        async def fake(ws):
            async for text in ws:
                m = json.loads(text)
                if m["type"] == "start":
                    reply = started(m, final["reference"])
                elif m["type"] == "end":
                    ends.append(m["session"])
                    if len(ends) == 1:
                        reply = {"type": "error", "code": "unavailable", "message": "not accepted: the shared store is unreachable", "session": m["session"]}
                    else:
                        reply = {**final, "type": "final", "session": m["session"], "reason": "end"}
                else:
                    reply = {"type": "pong"}
                await ws.send(json.dumps(reply))

        async def run():
            async with support.fake_client(fake) as client:
                session = await client.start("t")
                with self.assertRaises(SteplensError) as refused:
                    await asyncio.wait_for(session.end(), 5)
                again = await asyncio.wait_for(session.end(), 5)
                return refused.exception, again

        refused, again = asyncio.run(run())
        self.assertEqual(refused.code, "unavailable")
        self.assertEqual((again["type"], len(ends)), ("final", 2))


class EndPatchTest(unittest.TestCase):
    """``end(patch=...)``: the patch goes with the end, and with the end sent again after a reconnect; the patch of
    an end still waiting is kept when ``end`` is called again."""

    def test_the_end_sent_again_after_a_reconnect_carries_its_patch(self):
        final = HttpClient(support.server_url()).score(support.ASTROID_TASK, support.read_json(support.ASTROID_FAIL))
        ends = []

        async def fake(ws):
            async for text in ws:
                m = json.loads(text)
                if m["type"] == "start":
                    await ws.send(json.dumps(started(m, final["reference"])))
                elif m["type"] == "resume":
                    await ws.send(json.dumps({"type": "resumed", "session": m["session"], "last": -1}))
                elif m["type"] == "end":
                    ends.append(m)
                    if len(ends) == 1:
                        await ws.close()  # the socket drops before the final: the client reconnects and ends again
                        return
                    await ws.send(json.dumps({**final, "type": "final", "session": m["session"], "reason": "end"}))
                elif m["type"] == "ping":
                    await ws.send(json.dumps({"type": "pong"}))

        async def run():
            async with support.fake_client(fake, reconnect=Reconnect(retries=3, delay=0.02)) as client:
                session = await client.start("t", session="patched")
                return await asyncio.wait_for(session.end(patch="diff --git a/x.py b/x.py\n"), 10)

        self.assertEqual(asyncio.run(run())["type"], "final")
        self.assertEqual([e.get("patch") for e in ends], ["diff --git a/x.py b/x.py\n"] * 2)


class TwoSignalsOneStepTest(unittest.TestCase):
    """Two signals of one kind at one step (a budget of steps and one of tokens) are both kept, each once."""

    def test_both_budget_signals_are_kept(self):
        signals = [
            {"type": "signal", "kind": "budget", "severity": "warn", "t": 1, "steps": [1], "message": "step budget exceeded: 2 steps > 1"},
            {"type": "signal", "kind": "budget", "severity": "warn", "t": 1, "steps": [1], "message": "token budget exceeded: ~300 tokens > 150"},
        ]
        real = HttpClient(support.server_url()).score(support.ASTROID_TASK, support.read_json(support.ASTROID_FAIL))

        async def fake(ws):
            async for text in ws:
                m = json.loads(text)
                if m["type"] == "start":
                    await ws.send(json.dumps(started(m, real["reference"])))
                elif m["type"] == "step":
                    score = {"type": "score", "session": m["session"], "seq": m["seq"], "t": m["seq"], "stage": "E", "score": real["score"], "reward": 0, "tier": real["tier"], "reference": real["reference"]}
                    await ws.send(json.dumps(score))
                    for s in signals if m["seq"] == 1 else []:
                        await ws.send(json.dumps({**s, "session": m["session"], "seq": m["seq"]}))
                        await ws.send(json.dumps({**s, "session": m["session"], "seq": m["seq"]}))  # a re-send (resume) is dropped
                elif m["type"] == "ping":
                    await ws.send(json.dumps({"type": "pong"}))

        async def run():
            async with support.fake_client(fake) as client:
                session = await client.start("t")
                for _ in range(2):
                    await asyncio.wait_for(session.step({"tool": "bash", "action": {"kind": "shell", "command": "ls"}}), 5)
                return [s["message"] for s in session.signals]

        self.assertEqual(asyncio.run(run()), [s["message"] for s in signals])


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


class FrozenPeerCloseTest(unittest.TestCase):
    def test_close_does_not_wait_on_a_peer_that_stopped_answering(self):
        from steplens_client.socket import CLOSE_TIMEOUT_S

        async def run():
            released = asyncio.Event()

            async def frozen(ws, *args):
                ws.transport.pause_reading()  # never reads again: no close frame is answered
                await released.wait()

            async with support.fake_server(frozen) as url:
                client = await connect(url, reconnect=False)
                closing = asyncio.ensure_future(client.close())
                done, _ = await asyncio.wait({closing}, timeout=CLOSE_TIMEOUT_S + 5)
                released.set()
                return bool(done)

        self.assertTrue(asyncio.run(run()))


class SyncOpenTimeoutTest(unittest.TestCase):
    def test_a_sync_client_whose_connect_times_out_raises_one_line(self):
        # A server that takes the TCP connection and never answers the upgrade, and a SyncClient timeout below the
        # open timeout: the client raised `timeout`, then its loop was closed under the cancelled connect and Python
        # printed "Task was destroyed but it is pending!" twice, with the tasks, on stderr.
        code = ("import socket, sys\n"
                f"sys.path.insert(0, {str(support.CLIENT_DIR)!r})\n"
                "from steplens_client import SyncClient, SteplensError\n"
                "listener = socket.socket(); listener.bind(('127.0.0.1', 0)); listener.listen(1)\n"
                "try:\n"
                "    SyncClient(f'http://127.0.0.1:{listener.getsockname()[1]}', timeout=0.5)\n"
                "except SteplensError as e:\n"
                "    print(e.code)\n")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        self.assertEqual(out.stdout.strip(), "timeout", out.stderr)
        self.assertEqual(out.stderr, "")


class ControlDuringRecoveryTest(unittest.TestCase):
    """A start() or resume() asked for while the client recovers (socket reopened, resumes sent, the recovery's pong not
    yet back) is sent once the recovery ends; it was never sent and never settled."""

    def test_start_and_resume_during_recovery_settle(self):
        from steplens_client import Reconnect

        reference = HttpClient(support.server_url()).score(support.ASTROID_TASK, support.read_json(support.ASTROID_FAIL))["reference"]
        conns = []
        got = []

        async def handler(ws, *args):
            conns.append(ws)
            index = len(conns)
            slow_ping = index == 2
            try:
                async for text in ws:
                    m = json.loads(text)
                    got.append((index, m["type"], m.get("session", "")))
                    if m["type"] == "start":
                        await ws.send(json.dumps(started(m, reference)))
                        if index == 1:
                            asyncio.get_running_loop().call_later(0.2, lambda: asyncio.ensure_future(ws.close(1011)))
                    elif m["type"] == "resume":
                        await ws.send(json.dumps({"type": "resumed", "session": m["session"], "last": -1}))
                    elif m["type"] == "ping":
                        if slow_ping:  # the recovery's pong comes late: the client stays recovering meanwhile
                            slow_ping = False
                            await asyncio.sleep(1.0)
                        await ws.send(json.dumps({"type": "pong"}))
            except websockets.ConnectionClosed:
                pass  # the first connection's deliberate 1011 close: not a failure of this fake server (its traceback was printed)

        async def run():
            async with support.fake_client(handler, reconnect=Reconnect(retries=3, delay=0.05)) as client:
                await client.start("t", session="A")
                while client.reconnects == 0 and client._state != "recovering":
                    await asyncio.sleep(0.01)
                b = await asyncio.wait_for(client.start("t", session="B"), 5)
                x = await asyncio.wait_for(client.resume("X"), 5)
                return b.id, x.id

        self.assertEqual(asyncio.run(run()), ("B", "X"))
        self.assertIn((2, "start", "B"), got)
