"""The HTTP API against a real server: batch scoring and OpenRLHF's /get_reward equal POST /v1/score."""

import json
import unittest

import support
from steplens_client import HttpClient, SteplensError


class HttpTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.http = HttpClient(support.server_url())
        cls.docs = [support.read_json(p) for p in [support.ASTROID_FAIL, *support.ASTROID_PASS]]
        cls.single = [cls.http.score(support.ASTROID_TASK, d) for d in cls.docs]

    def test_batch_equals_one_call_per_item_in_order_with_per_item_errors(self):
        items = [{"task": support.ASTROID_TASK, "trajectory": d} for d in self.docs]
        items.insert(1, {"task": support.ASTROID_TASK, "trajectory": {"not": "a log"}})
        results = self.http.score_batch(items)
        self.assertEqual(len(results), 4)
        self.assertEqual([results[0], results[2], results[3]], self.single)
        self.assertIsInstance(results[1], SteplensError)
        self.assertIn("items[1]", str(results[1]))
        with self.assertRaises(SteplensError):
            self.http.score_batch(items, raise_errors=True)

    def test_batch_item_refused_by_the_client_is_in_its_place(self):
        # audit20: a text that is no JSON, or an outcome that is no boolean, raised for the whole batch (the good items
        # lost); now it is that item's error, in its place, and the others are scored.
        items = [{"task": support.ASTROID_TASK, "trajectory": d} for d in self.docs]
        items.insert(1, {"task": support.ASTROID_TASK, "trajectory": "Traceback (most recent call last): not a log"})
        items.insert(3, {"task": support.ASTROID_TASK, "trajectory": self.docs[0], "passed": "false"})
        results = self.http.score_batch(items)
        self.assertEqual(len(results), 5)
        self.assertEqual([results[0], results[2], results[4]], self.single)
        for i in (1, 3):
            self.assertIsInstance(results[i], SteplensError)
            self.assertEqual(results[i].code, "bad_input")
            self.assertIn(f"item {i} ({support.ASTROID_TASK})", str(results[i]))
        self.assertIn("passed: expected True or False (got 'false')", str(results[3]))
        with self.assertRaises(SteplensError):
            self.http.score_batch(items, raise_errors=True)

    def test_trajectory_text_is_parsed_client_side(self):
        text = support.ASTROID_FAIL.read_text(encoding="utf-8")
        self.assertEqual(self.http.score(support.ASTROID_TASK, text), self.single[0])
        steps = support.steplens_steps(support.ASTROID_FAIL)
        jsonl = "\n".join(json.dumps(s) for s in steps)
        self.assertEqual(self.http.score(support.ASTROID_TASK, jsonl)["score"], self.single[0]["score"])

    def test_get_reward_openrlhf_request_equals_post_score(self):
        prompt = "Solve the issue in pylint-dev/astroid. Answer with your trajectory.\n"
        texts = [p.read_text(encoding="utf-8") for p in [support.ASTROID_FAIL, *support.ASTROID_PASS]]
        # OpenRLHF's remote RM: query = prompt + response, prompts, labels (--label_key instance_id)
        answer = self.http.get_reward([prompt + t for t in texts], prompts=[prompt] * 3, labels=[support.ASTROID_TASK] * 3)
        expected = [r["score"]["total"] / 100 for r in self.single]
        self.assertEqual(answer["rewards"], expected)
        self.assertEqual(answer["scores"], expected)
        self.assertEqual(answer["extra_logs"]["steps"], [r["steps"] for r in self.single])
        self.assertEqual(answer["extra_logs"]["reference"], [1, 1, 1])
        labelled = self.http.get_reward([texts[0]], labels=[json.dumps({"task": support.ASTROID_TASK, "passed": False})])
        self.assertEqual(labelled["rewards"], [self.http.score(support.ASTROID_TASK, self.docs[0], passed=False)["score"]["total"] / 100])

    def test_errors_carry_the_server_code_and_field(self):
        with self.assertRaises(SteplensError) as e:
            self.http.score(support.ASTROID_TASK, self.docs[0], policy={"blindRetry": {"warn": 3, "stop": 2}})
        self.assertEqual((e.exception.code, e.exception.status), ("bad_message", 400))
        self.assertIn("policy", str(e.exception))
        with self.assertRaises(SteplensError) as e:
            self.http.get_reward(["{}"], labels=[None])
        self.assertIn("labels[0]", str(e.exception))
        with self.assertRaises(SteplensError) as e:
            self.http.session("nope")
        self.assertEqual(e.exception.code, "unknown_session")
        with self.assertRaises(SteplensError) as e:
            self.http.score(support.ASTROID_TASK, "{ truncated")
        self.assertEqual(e.exception.code, "bad_input")
        with self.assertRaises(SteplensError) as e:
            HttpClient("http://127.0.0.1:1").score("t", [])
        self.assertEqual(e.exception.code, "unreachable")


if __name__ == "__main__":
    unittest.main()
