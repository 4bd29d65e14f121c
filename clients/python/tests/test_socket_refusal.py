"""A refused upgrade's error names the server's reason when the installed ``websockets`` keeps the answer's
body (13.0 and newer: ``InvalidStatus.response.body``); older ones keep only the status."""

import unittest
from types import SimpleNamespace

import support  # noqa: F401  (puts the client package on the path)
from steplens_client.socket import _reason_of


def refusal(body):
    return SimpleNamespace(response=SimpleNamespace(status_code=429, body=body))


class RefusalReasonTest(unittest.TestCase):
    def test_the_servers_json_error_is_named(self):
        body = b'{"error":{"code":"quota_exceeded","message":"tenant \'t\' holds 16 WebSocket connections, its limit"}}'
        self.assertEqual(_reason_of(refusal(body)), " quota_exceeded: tenant 't' holds 16 WebSocket connections, its limit")

    def test_no_body_or_not_the_error_shape_gives_nothing(self):
        for body in (None, b"", b"<html>bad gateway</html>", b'{"error":"x"}', b"[1]", b'{"error":{"code":1}}'):
            self.assertEqual(_reason_of(refusal(body)), "", body)
        self.assertEqual(_reason_of(SimpleNamespace(status_code=429)), "")  # websockets 10-12: InvalidStatusCode


if __name__ == "__main__":
    unittest.main()
