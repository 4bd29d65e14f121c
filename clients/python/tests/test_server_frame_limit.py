"""T64: a frame from the server over the client's ``max_server_frame_bytes`` (``websockets``' ``max_size``), as
test/client/server-frame-limit.test.ts. ``websockets`` refuses it unread and closes the socket (1009), which the client
reported as ``closed (1006)``; with ``reconnect`` on it resumed the session, the server sent the frame again, and the
client reconnected again, for good. Here the frame is a real session's ``final``, the only frame of the run over a limit
set just above all the others."""

import asyncio
import contextlib
import unittest

import websockets

import support
from steplens_client import Reconnect, SteplensError, SyncClient, connect
from steplens_client.oversized import MAX_SERVER_FRAME_BYTES
from steplens_client.socket import stream_url

GUARD = 20


@contextlib.asynccontextmanager
async def counting_relay(upstream: str):
    """A relay to the real server counting its connections and keeping ``(type, bytes)`` of each server frame."""
    connections, sizes = [0], []

    async def relay(down, *_):
        connections[0] += 1
        async with websockets.connect(upstream, max_size=None) as up:

            async def pump():
                async for text in up:
                    sizes.append((text.split('"type":"', 1)[1].split('"', 1)[0], len(text.encode("utf-8"))))
                    await down.send(text)

            task = asyncio.ensure_future(pump())
            try:
                async for text in down:
                    await up.send(text)
            except websockets.exceptions.ConnectionClosed:
                pass  # the client closed it over the final: the point of the test
            finally:
                task.cancel()

    async with support.fake_server(relay) as url:
        yield url, connections, sizes


class ServerFrameLimitTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.upstream = stream_url(support.server_url())
        cls.steps = support.steplens_steps(support.ASTROID_FAIL)[:4]

    async def run_session(self, url, **options):
        client = await connect(url, **options)
        session = await asyncio.wait_for(client.start(support.ASTROID_TASK), GUARD)
        for step in self.steps:
            await asyncio.wait_for(session.step(step), GUARD)
        try:
            end = await asyncio.wait_for(session.end(), GUARD)
        except SteplensError as e:
            end = e
        return client, session, end

    def test_a_frame_over_the_limit_fails_the_client_with_one_too_large_and_is_not_asked_for_again(self):
        async def run():
            # The same session once within the default limit: the final is its largest frame.
            async with counting_relay(self.upstream) as (url, _, sizes):
                client, _, end = await self.run_session(url, reconnect=False)
                await client.close()
            self.assertEqual((end["type"], end["steps"]), ("final", 4))
            final = next(b for t, b in sizes if t == "final")
            limit = max(b for t, b in sizes if t != "final") + 1
            self.assertGreater(final, limit)
            # Again under a limit just above every frame but the final, reconnect on (a resume would have it sent again).
            async with counting_relay(self.upstream) as (url, connections, _):
                client, session, end = await self.run_session(url, reconnect=Reconnect(retries=3, delay=0.01), max_server_frame_bytes=limit)
                try:
                    self.assertIsInstance(end, SteplensError, end)
                    self.assertEqual(end.code, "too_large")
                    self.assertIn(f"sent a frame over the client's limit of {limit} bytes (max_server_frame_bytes)", end.message)
                    self.assertTrue(end.message.endswith("connect with a larger max_server_frame_bytes to receive it"), end.message)
                    self.assertEqual(len(session.scores), 4)
                    self.assertTrue(client.closed)
                    with self.assertRaises(SteplensError) as later:
                        await client.start(support.ASTROID_TASK)
                    self.assertIs(later.exception, end)
                    await asyncio.sleep(0.1)
                    self.assertEqual(connections[0], 1)
                finally:
                    await client.close()

        asyncio.run(run())

    def test_max_server_frame_bytes_is_checked_and_reaches_the_blocking_client(self):
        self.assertEqual(MAX_SERVER_FRAME_BYTES, 64 * 1024 * 1024)
        for bad in (0, -1, 1.5, "5", True, None):
            with self.assertRaises(ValueError) as refused:
                asyncio.run(connect(support.server_url(), max_server_frame_bytes=bad))
            self.assertTrue(str(refused.exception).startswith("connect: max_server_frame_bytes must be a whole number of bytes, 1 or more"))
        with SyncClient(support.server_url(), max_server_frame_bytes=12345) as sync:
            self.assertEqual(sync.client.max_server_frame_bytes, 12345)


if __name__ == "__main__":
    unittest.main()
