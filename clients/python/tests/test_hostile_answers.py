"""A server that answers without end, or a byte at a time (a hostile or broken server, a proxy, a wrong URL): the HTTP
client reads at most ``max_answer_bytes`` of an answer and 64 KiB of an error answer, and gives up on a body not read
within its ``timeout`` (red-team round 6: a 1 GiB answer took 3 GB of the client's memory, a 1 GiB error answer
2 GB, and a byte every 5 s held a call with ``timeout=10`` for as long as the server kept on)."""

import http.server
import threading
import time
import unittest

import support  # noqa: F401 (puts the client on sys.path)
from steplens_client.errors import SteplensError
from steplens_client.http import HttpClient

PIECE = b"a" * 65536


class Hostile(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    sent = {}

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", "0")))
        mode = self.path.rsplit("/", 1)[-1]
        self.send_response(500 if mode == "bigerror" else 200)
        self.send_header("content-type", "application/json")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        sent = 0
        try:
            if mode == "trickle":
                # a space every 0.5 s for 8 s, then a valid answer: read whole only by a client that waits it out
                for _ in range(16):
                    self._chunk(b" ")
                    time.sleep(0.5)
                self._chunk(b"{}")
            else:
                for _ in range(1024):  # 64 MiB
                    self._chunk(PIECE)
                    sent += len(PIECE)
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        Hostile.sent[mode] = sent

    def _chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()


class HostileAnswersTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.url = f"http://127.0.0.1:{cls.server.server_address[1]}"

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def wait_sent(self, mode):
        for _ in range(200):
            if mode in Hostile.sent:
                return Hostile.sent[mode]
            time.sleep(0.05)
        self.fail(f"the fake server's {mode} answer did not end")

    def test_an_answer_over_the_limit_is_refused_unread(self):
        client = HttpClient(self.url, timeout=20)
        client.max_answer_bytes = 1024 * 1024
        with self.assertRaises(SteplensError) as caught:
            client.request("POST", "/big", {})
        self.assertEqual(caught.exception.code, "too_large")
        self.assertIn("1,048,576 bytes", str(caught.exception))
        self.assertLess(self.wait_sent("big"), 64 * 1024 * 1024)

    def test_an_error_answer_is_read_to_64_kib_at_most(self):
        with self.assertRaises(SteplensError) as caught:
            HttpClient(self.url, timeout=20).request("POST", "/bigerror", {})
        self.assertEqual(caught.exception.status, 500)
        self.assertIn("not read", str(caught.exception))
        self.assertLess(len(str(caught.exception)), 400)
        self.assertLess(self.wait_sent("bigerror"), 64 * 1024 * 1024)

    def test_a_trickled_answer_times_out(self):
        with self.assertRaises(SteplensError) as caught:
            HttpClient(self.url, timeout=1).request("POST", "/trickle", {})
        self.assertEqual(caught.exception.code, "timeout")
        self.assertIn("within 1 s of its headers", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
