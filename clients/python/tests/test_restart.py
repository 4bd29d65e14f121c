"""A streaming session survives a server restart: the client starts it again on the new server
and sends its steps again, and no step is lost or counted twice."""

import shutil
import tempfile
import unittest
from urllib.parse import urlparse

import support
from steplens_client import HttpClient


class RestartTest(unittest.TestCase):
    def test_session_survives_a_server_restart(self):
        data = tempfile.mkdtemp(prefix="steplens-py-restart-")
        url, stop = support.start_server(data=data)
        try:
            steps = support.steplens_steps(support.ASTROID_FAIL)
            batch = HttpClient(url).score(support.ASTROID_TASK, steps, passed=False)
            port = urlparse(url).port

            def restart(session):
                nonlocal stop
                stop()  # graceful: the server sends a shutdown final, which is not the end
                self.assertIsNone(session.final)
                _, stop = support.start_server(port=port, data=data)

            reconnects, session, answers, final = support.stream_across_a_swap(url, steps, "py-restart", 10, restart)
            self.assertEqual(reconnects, 1)
            support.assert_each_step_scored_once(self, steps, session, answers, final, batch)
            self.assertEqual(final["reason"], "end")
        finally:
            stop()
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
