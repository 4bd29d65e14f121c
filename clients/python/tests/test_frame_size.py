"""A step is sent as the TypeScript client sends it (compact JSON, text as UTF-8), so it is as large in bytes and
meets the same frame limit. The client sent Python's default JSON (", " separators, non-ASCII as \\uXXXX): a real
ATIF step of 14,834 bytes (as the TypeScript client and the server count it) was 17,405 here, and refused locally
``too_large`` under a 16 KiB limit that the server would have met."""

import asyncio
import json
import shutil
import tempfile
import unittest

import support
from steplens_client import HttpClient, connect, events, load
from steplens_client.oversized import frame_bytes, frame_text

LIMIT = 16 * 1024
RUN = support.CORPUS / "sachiny0106__Xelron_harbor-copy/tests/golden/terminus_2/hello-world-context-summarization.trajectory.json"


class FrameSizeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = tempfile.mkdtemp(prefix="steplens-py-")
        cls.url, cls.stop = support.start_server(data=cls.data, extra=["--limit", f"maxFrameBytes={LIMIT}"])
        cls.doc = load(RUN)
        cls.events = events(cls.doc)
        # One event is over the limit in Python's default JSON and under it as JSON.stringify writes it.
        assert any(len(json.dumps(e)) > LIMIT > len(json.dumps(e, ensure_ascii=False, separators=(",", ":")).encode()) + 200
                   for e in cls.events)

    @classmethod
    def tearDownClass(cls):
        cls.stop()
        shutil.rmtree(cls.data, ignore_errors=True)

    def test_a_step_under_the_limit_as_the_server_counts_it_is_sent(self):
        async def run():
            async with await connect(self.url, max_frame_bytes=LIMIT, reconnect=False) as client:
                session = await client.start("hello-world", format="atif")
                for e in self.events:
                    await session.step(e)
                return await session.end()

        final = asyncio.run(run())
        report = HttpClient(self.url).score("hello-world", self.doc, format="atif")
        self.assertEqual(final["steps"], report["steps"])
        self.assertEqual(final["score"], report["score"])

    def test_frame_text_is_compact_utf8_and_keeps_escapes_only_where_it_must(self):
        for e in self.events:
            message = {"type": "step", "session": "s", "seq": 0, "step": e}
            self.assertEqual(json.loads(frame_text(message)), message)
            self.assertEqual(frame_bytes(message), len(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()))
        lone = {"type": "step", "session": "s", "seq": 0, "step": {"observation": "\ud83d"}}  # json.loads("\"\\ud83d\"")
        self.assertEqual(frame_text(lone), '{"type":"step","session":"s","seq":0,"step":{"observation":"\\ud83d"}}')


if __name__ == "__main__":
    unittest.main()
