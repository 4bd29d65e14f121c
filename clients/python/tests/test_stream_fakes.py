"""Streaming against fake servers (support.fake_server / fake_client): what a real server cannot be made to do on
cue (refuse an end, drop a socket mid-recovery, stop answering, send two signals for one step)."""

import asyncio
import json
import subprocess
import sys
import unittest

import websockets

import support
from steplens_client import HttpClient, Reconnect, SteplensError, connect


def started(m, reference):
    """A fake server's answer to the client's ``start`` message ``m``: its session started on task "t"."""
    return {"type": "started", "session": m["session"], "task": "t", "format": "steplens", "reference": reference}


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


if __name__ == "__main__":
    unittest.main()
