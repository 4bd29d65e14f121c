"""audit20: ``passed`` was sent as ``bool(value)``: ``passed="false"`` (an outcome read from a CSV or JSON as text)
was a pass, and the report's tier a passing one. Now anything but True, False, 1, 0 or a NumPy boolean raises
``bad_input`` naming it before anything is sent. No server needed."""

import unittest

import support  # noqa: F401  (puts the client on sys.path)
from steplens_client import SteplensError
from steplens_client.http import score_request


class OutcomeArgsTest(unittest.TestCase):
    def test_a_string_is_no_outcome(self):
        for value in ("false", "yes", "", 2, 0.0, [True]):
            with self.assertRaises(SteplensError) as caught:
                score_request("t", {"messages": []}, passed=value)
            self.assertEqual(caught.exception.code, "bad_input")
            self.assertIn(f"passed: expected True or False (got {value!r})", str(caught.exception))

    def test_booleans_and_their_integers_are(self):
        from steplens_client.outcome import outcome_flag

        self.assertEqual(score_request("t", {"messages": []}, passed=False)["passed"], False)
        self.assertEqual([outcome_flag(v) for v in (True, False, 1, 0)], [True, False, True, False])
        self.assertNotIn("passed", score_request("t", {"messages": []}))


if __name__ == "__main__":
    unittest.main()
