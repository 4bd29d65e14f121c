"""A suite killed by SIGTERM (vitest's timeout) stops the servers it started: Python's default left one answering for
80 minutes (stop 63)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import unittest
from urllib.parse import urlparse

from support import REPO

CHILD = """
import sys, time
sys.path.insert(0, sys.argv[1])
import support
url, _stop = support.start_server()
print(url, flush=True)
time.sleep(120)
"""


def answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


class SigtermTest(unittest.TestCase):
    def test_a_sigterm_stops_the_server_it_started(self) -> None:
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(REPO / "clients" / "python" / "tests")],
                                 stdout=subprocess.PIPE, text=True)
        try:
            url = child.stdout.readline().strip() if child.stdout else ""
            address = urlparse(url)
            host, port = address.hostname or "127.0.0.1", address.port or 0
            self.assertTrue(answers(host, port), f"the server did not answer at {url!r}")
            child.send_signal(signal.SIGTERM)
            self.assertEqual(child.wait(20), 128 + signal.SIGTERM)
            deadline = time.monotonic() + 10
            while answers(host, port) and time.monotonic() < deadline:
                time.sleep(0.1)
            self.assertFalse(answers(host, port), "the server still answers after its suite got SIGTERM")
        finally:
            if child.poll() is None:
                child.kill()
                child.wait(10)
            if child.stdout:
                child.stdout.close()


if __name__ == "__main__":
    unittest.main()
