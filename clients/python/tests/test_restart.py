"""A streaming session survives a server restart: the client starts it again on the new server
and sends its steps again, and no step is lost or counted twice."""

import asyncio
import shutil
import tempfile
import unittest
from urllib.parse import urlparse

import support
from steplens_client import HttpClient, Reconnect, connect


class RestartTest(unittest.TestCase):
    def test_session_survives_a_server_restart(self):
        data = tempfile.mkdtemp(prefix="steplens-py-restart-")
        url, stop = support.start_server(data=data)
        try:
            steps = support.steplens_steps(support.ASTROID_FAIL)
            batch = HttpClient(url).score(support.ASTROID_TASK, steps, passed=False)
            port = urlparse(url).port

            async def run():
                nonlocal stop
                client = await connect(url, reconnect=Reconnect(retries=10, delay=0.05))
                try:
                    session = await client.start(support.ASTROID_TASK, session="py-restart")
                    half = len(steps) // 2
                    answers = [await session.step(s) for s in steps[:half]]
                    stop()  # graceful: the server sends a shutdown final, which is not the end
                    self.assertIsNone(session.final)
                    _, stop = support.start_server(port=port, data=data)
                    answers += [await session.step(s) for s in steps[half:]]
                    await session.outcome(False)
                    final = await session.end()
                    return client.reconnects, session, answers, final
                finally:
                    await client.close()

            reconnects, session, answers, final = asyncio.run(run())
            self.assertEqual(reconnects, 1)
            self.assertEqual([[f["t"] for f in a] for a in answers], [[i] for i in range(len(steps))])
            self.assertEqual([f["t"] for f in session.scores], list(range(len(steps))))
            self.assertEqual(final["reason"], "end")
            self.assertEqual({k: final[k] for k in batch}, batch)
        finally:
            stop()
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
