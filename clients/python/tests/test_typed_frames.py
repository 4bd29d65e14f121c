"""A hostile or broken server's frames whose fields have the wrong type, or whose JSON this interpreter will not read
(nested past its recursion limit, an integer past its digit limit) (T101): each call waiting on the stream fails with
``bad_frame`` naming what is wrong, instead of waiting out its timeout (forever without one) or answering a step
without its score; the HTTP client's answers likewise raise ``bad_frame``, not ``RecursionError`` or ``ValueError``."""

import asyncio
import http.server
import json
import sys
import threading
import unittest

import support
from steplens_client import HttpClient, SteplensError
from steplens_client.frames import parse_frame

REF = {"kind": "prior", "version": 0, "paths": 0}
DEEP = '{"type": "started", "session": "s1", "task": "t", "reference": ' + "[" * 100_000 + "]" * 100_000 + "}"
DIGITS = '{"type": "started", "session": "s1", "task": "t", "reference": {"version": ' + "9" * 5000 + "}}"
# An interpreter without the integer digit limit (before 3.11 and its backports) reads DIGITS: then only DEEP is asked.
UNREADABLE = (DEEP, DIGITS) if hasattr(sys, "get_int_max_str_digits") else (DEEP,)


def fake_answering(bad):
    """A fake server answering start, step, ping, end and resume as a real one would, but with ``bad(m)``'s frames for
    the message type ``bad`` names (the step's ping still answered)."""
    kind, frames = bad

    async def fake(ws):
        async for text in ws:
            m = json.loads(text)
            if m["type"] == kind:
                for f in frames(m):
                    await ws.send(json.dumps(f))
            elif m["type"] == "start":
                await ws.send(json.dumps({"type": "started", "session": m["session"], "task": "t", "reference": REF}))
            elif m["type"] == "ping":
                await ws.send(json.dumps({"type": "pong"}))

    return fake


def outcome(bad, call):
    """What ``call(client)`` raised against :func:`fake_answering` of ``bad`` (the client's own timeout: 5 s)."""

    async def run():
        async with support.fake_client(fake_answering(bad), timeout=5) as client:
            try:
                await asyncio.wait_for(call(client), 30)
            except SteplensError as e:
                return e
            return None

    return asyncio.run(run())


async def start(client):
    await client.start("t", session="s1")


async def step(client):
    s = await client.start("t", session="s1")
    await s.step({"action": "ls", "observation": ""})


async def resume(client):
    await client.resume("s1")


class TypedFramesTest(unittest.TestCase):
    def test_parse_frame_checks_the_fields_the_client_keys_on(self):
        for text, why in (
            ('{"type": "score", "session": "s", "seq": "0", "t": 0, "score": {}, "reward": 0}', "seq '0' is not of type int"),
            ('{"type": "score", "session": "s", "seq": true, "t": 0, "score": {}, "reward": 0}', "seq True is not of type int"),
            ('{"type": "score", "session": "s", "seq": NaN, "t": 0, "score": {}, "reward": 0}', "seq nan is not of type int"),
            ('{"type": "started", "session": ["s"], "task": "t", "reference": {}}', "session ['s'] is not of type str"),
            ('{"type": "error", "code": "x", "message": "m", "session": {}}', "session {} is not of type str"),
            ('{"type": "resumed", "session": "s", "last": "x"}', "last 'x' is not of type int"),
        ):
            ok, detail = parse_frame(text)
            self.assertFalse(ok, text)
            self.assertIn(why, detail)
        self.assertTrue(parse_frame('{"type": "error", "code": "x", "message": "m", "session": "s", "seq": 3}')[0])
        self.assertTrue(parse_frame('{"type": "notice", "session": 7}')[0])  # a type added later: not checked
        # A long value is shown cut short.
        self.assertLess(len(parse_frame(json.dumps({"type": "resumed", "session": ["x" * 100_000], "last": 0}))[1]), 200)

    def test_a_started_with_a_list_for_its_session_fails_the_start(self):
        e = outcome(("start", lambda m: [{"type": "started", "session": [m["session"]], "task": "t", "reference": REF}]), start)
        self.assertEqual((e.code, "session ['s1'] is not of type str" in str(e)), ("bad_frame", True), str(e))

    def test_a_score_with_a_string_seq_fails_the_step(self):
        e = outcome(("step", lambda m: [{"type": "score", "session": m["session"], "seq": str(m["seq"]), "t": 0, "score": {}, "reward": 0}]), step)
        self.assertEqual(e.code if e else None, "bad_frame", str(e))

    def test_a_malformed_frame_fails_a_resume_waiting_for_its_answer(self):
        e = outcome(("resume", lambda m: [{"type": "resumed", "session": m["session"], "last": "x"}]), resume)
        self.assertEqual(e.code if e else None, "bad_frame", str(e))
        e = outcome(("resume", lambda m: [{"type": "resumed", "session": m["session"]}]), resume)  # typed fine, missing
        self.assertEqual(e.code if e else None, "bad_frame", str(e))


    def test_json_the_interpreter_will_not_read_is_a_malformed_frame(self):
        for text in UNREADABLE:
            ok, detail = parse_frame(text)
            self.assertEqual((ok, detail.startswith("JSON this client cannot read")), (False, True), detail)

        async def run():
            async def fake(ws):
                async for _ in ws:
                    await ws.send(DEEP)

            async with support.fake_client(fake, timeout=5) as client:
                try:
                    await asyncio.wait_for(client.start("t", session="s1"), 30)
                except SteplensError as err:
                    return err.code

        self.assertEqual(asyncio.run(run()), "bad_frame")

    def test_an_http_answer_the_interpreter_will_not_read_is_bad_frame(self):
        class Answer(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("content-length", "0")))
                body = UNREADABLE[int(self.path.split("/")[1])].encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            for path in (f"/{i}" for i in range(len(UNREADABLE))):
                with self.assertRaises(SteplensError) as e:
                    HttpClient(f"http://127.0.0.1:{server.server_address[1]}{path}", timeout=10).request("POST", "/v1/score", {})
                self.assertEqual(e.exception.code, "bad_frame", str(e.exception))
                self.assertIn("cannot read", str(e.exception))
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    unittest.main()
