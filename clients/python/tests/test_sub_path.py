"""A server behind a reverse proxy under a path (``http://host/prefix``): the client keeps the path for every HTTP
route and for the stream (it dropped it: ``/prefix/v1/score`` was sent as ``/v1/score``, and the stream went to
``ws://host/prefix``, which is no route)."""

import asyncio
import contextlib
import threading
import unittest

import support
from steplens_client import HttpClient, SteplensError, StepHook, SyncClient, TrlReward, connect, step_rewards
from steplens_client.http import base_url
from steplens_client.socket import stream_url

PREFIX = "/steplens/api"


@contextlib.contextmanager
def prefix_proxy(upstream: str, prefix: str = PREFIX):
    """A reverse proxy on 127.0.0.1, on its own thread, that serves ``upstream`` (``http://host:port``) under
    ``prefix``: a request (HTTP or a WebSocket upgrade) whose path starts with ``prefix`` goes up without it, bytes
    are then relayed both ways as they are; any other path is answered 404. One request per connection (the client's
    urllib requests say ``Connection: close``; a WebSocket is one upgrade). Yields ``(url, paths)``: the proxy's
    address with ``prefix`` and the paths it was asked for."""
    host, port = upstream.split("//", 1)[1].split(":")
    paths, box, ready = [], {}, threading.Event()

    async def pipe(reader, writer):
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def serve(down_reader, down_writer):
        try:
            head = await down_reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            down_writer.close()
            return
        line, _, rest = head.partition(b"\r\n")
        method, path, version = line.decode("latin-1").split(" ", 2)
        paths.append(path)
        if not (path == prefix or path.startswith(prefix + "/") or path.startswith(prefix + "?")):
            down_writer.write(b"HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\ncontent-length: 9\r\nconnection: close\r\n\r\nnot found")
            await down_writer.drain()
            down_writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(host, int(port))
        up_path = path[len(prefix):] or "/"
        if up_path.startswith("?"):
            up_path = "/" + up_path
        up_writer.write(f"{method} {up_path} {version}".encode("latin-1") + b"\r\n" + rest)
        await asyncio.gather(pipe(down_reader, up_writer), pipe(up_reader, down_writer))

    async def main():
        stop = asyncio.Event()
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        box["url"] = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}{prefix}"
        box["loop"], box["stop"] = asyncio.get_running_loop(), stop
        ready.set()
        async with server:
            await stop.wait()

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield box["url"], paths
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(10)


class UrlTest(unittest.TestCase):
    def test_the_path_of_a_server_address_is_kept(self):
        for url, base, stream in [
            ("http://h:8787", "http://h:8787", "ws://h:8787/v1/stream"),
            ("http://h:8787/", "http://h:8787", "ws://h:8787/v1/stream"),
            ("https://h/prefix", "https://h/prefix", "wss://h/prefix/v1/stream"),
            ("https://h/a/b/", "https://h/a/b", "wss://h/a/b/v1/stream"),
            ("http://h/prefix/v1/stream", "http://h/prefix", "ws://h/prefix/v1/stream"),
            ("ws://h:8787", "http://h:8787", "ws://h:8787/v1/stream"),
            ("ws://h:8787/v1/stream", "http://h:8787", "ws://h:8787/v1/stream"),
            ("wss://h/prefix/v1/stream", "https://h/prefix", "wss://h/prefix/v1/stream"),
            ("ws://h/custom-ws", "http://h/custom-ws", "ws://h/custom-ws"),  # a ws(s) URL is the stream URL as given
            ("http://h/prefix?x=1", "http://h/prefix", "ws://h/prefix/v1/stream?x=1"),
        ]:
            with self.subTest(url=url):
                self.assertEqual((base_url(url), stream_url(url)), (base, stream))
                self.assertEqual(HttpClient(url).url, base)
        for bad in ("h:8787", "ftp://h/x", "http:///x"):
            with self.subTest(bad=bad), self.assertRaises(SteplensError) as e:
                stream_url(bad)
            self.assertEqual(e.exception.code, "bad_url")


class SubPathTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.url = support.server_url()
        cls.doc = support.read_json(support.ASTROID_FAIL)
        cls.steps = support.steplens_steps(support.ASTROID_FAIL)[:6]
        cls.direct = HttpClient(cls.url)
        cls.expected = cls.direct.score(support.ASTROID_TASK, cls.doc)
        cls.expected_steps = cls.direct.score(support.ASTROID_TASK, cls.steps)

    def test_http_routes_go_under_the_path(self):
        with prefix_proxy(self.url) as (url, paths):
            http = HttpClient(url)
            self.assertTrue(http.health())
            self.assertEqual(http.score(support.ASTROID_TASK, self.doc)["score"], self.expected["score"])
            ranked = http.rank([{"trajectory": self.doc}, {"trajectory": support.read_json(support.ASTROID_PASS[0])}])
            self.assertEqual(len(ranked["runs"]), 2)
            text = support.ASTROID_FAIL.read_text(encoding="utf-8")
            self.assertEqual(TrlReward(url)([None], [text], task=[support.ASTROID_TASK]), [self.expected["score"]["total"] * 0.01])
            with self.assertRaises(SteplensError) as e:  # the server's own refusal comes through, not the proxy's 404
                http.session("no-such-session")
            self.assertEqual(e.exception.code, "unknown_session")
        self.assertEqual(paths, [f"{PREFIX}/healthz", f"{PREFIX}/v1/score", f"{PREFIX}/v1/rank", f"{PREFIX}/v1/score/batch",
                                 f"{PREFIX}/v1/sessions/no-such-session"])

    def test_the_stream_goes_under_the_path(self):
        with prefix_proxy(self.url) as (url, paths):

            async def stream():
                async with await connect(url, reconnect=False) as client:
                    session = await client.start(support.ASTROID_TASK)
                    for step in self.steps:
                        await session.step(step)
                    return await session.end()

            self.assertEqual(asyncio.run(stream())["score"], self.expected_steps["score"])
            with SyncClient(url + "/", reconnect=False) as client:
                session = client.start(support.ASTROID_TASK)
                for step in self.steps:
                    session.step(step)
                self.assertEqual(session.end()["score"], self.expected_steps["score"])
            with StepHook(url, support.ASTROID_TASK, reconnect=False) as hook:
                for step in self.steps:
                    hook.event(step)
                self.assertEqual(hook.finish()["score"], self.expected_steps["score"])
            rewards = step_rewards(url, support.ASTROID_TASK, self.steps)
            self.assertEqual(len(rewards), len(self.steps))
        self.assertEqual(paths, [f"{PREFIX}/v1/stream"] * 4)


if __name__ == "__main__":
    unittest.main()
