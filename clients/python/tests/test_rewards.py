"""TRL / veRL reward adapters and per-step rewards, against a real server."""

import math
import unittest

import support
from steplens_client import HttpClient, SteplensError, TrlReward, VerlReward, load, parse_label, step_rewards, step_rewards_many
from steplens_client import rewards as rewards_module


class RewardsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.url = support.server_url()
        cls.http = HttpClient(cls.url)
        cls.paths = [support.ASTROID_FAIL, *support.ASTROID_PASS]
        cls.texts = [p.read_text(encoding="utf-8") for p in cls.paths]
        cls.batch = [cls.http.score(support.ASTROID_TASK, t) for t in cls.texts]

    def test_trl_reward_func_returns_the_batch_score(self):
        reward = TrlReward(self.url, task_key="instance_id")
        self.assertEqual(reward.__name__, "steplens")
        prompts = ["fix the issue"] * 3
        got = reward(prompts, self.texts, instance_id=[support.ASTROID_TASK] * 3, other_column=[1, 2, 3])
        self.assertEqual(got, [r["score"]["total"] * 0.01 for r in self.batch])
        conversational = [[{"role": "assistant", "content": t}] for t in self.texts]
        self.assertEqual(reward(prompts, conversational, instance_id=[support.ASTROID_TASK] * 3), got)
        raw = TrlReward(self.url, scale=1.0)
        self.assertEqual(raw(prompts[:1], self.texts[:1], task=[support.ASTROID_TASK]), [self.batch[0]["score"]["total"]])

    def test_trl_reward_errors(self):
        reward = TrlReward(self.url, task_key="instance_id")
        with self.assertRaises(SteplensError) as e:
            reward(["p"], self.texts[:1], task=[support.ASTROID_TASK])
        self.assertIn("'instance_id'", str(e.exception))
        with self.assertRaises(SteplensError) as e:
            reward(["p", "p"], [self.texts[0], '{"no": "log"}'], instance_id=[support.ASTROID_TASK] * 2)
        self.assertIn("item 1", str(e.exception))
        lenient = TrlReward(self.url, task_key="instance_id", on_error="nan")
        got = lenient(["p", "p"], [self.texts[0], '{"no": "log"}'], instance_id=[support.ASTROID_TASK] * 2)
        self.assertEqual(got[0], self.batch[0]["score"]["total"] * 0.01)
        self.assertTrue(math.isnan(got[1]))

    def test_on_error_covers_completions_that_are_not_a_log(self):
        # Plain text and cut JSON (a model writing garbage): refused locally, yet on_error applies and the batch's
        # good completions are still scored (both used to raise bad_input for the whole batch).
        garbage = ["I could not fix it, sorry.", self.texts[0][:200]]
        trl = TrlReward(self.url, task_key="instance_id", on_error=-1.0)
        got = trl(["p"] * 3, [self.texts[1], *garbage], instance_id=[support.ASTROID_TASK] * 3)
        self.assertEqual(got, [self.batch[1]["score"]["total"] * 0.01, -1.0, -1.0])
        verl = VerlReward(self.url, on_error="nan")
        got = verl.batch(["d"] * 3, [garbage[0], self.texts[2], garbage[1]], [support.ASTROID_TASK] * 3)
        self.assertTrue(math.isnan(got[0]) and math.isnan(got[2]))
        self.assertEqual(got[1], self.batch[2]["score"]["total"] * 0.01)
        self.assertTrue(math.isnan(verl("d", garbage[0], support.ASTROID_TASK)))
        per_step = VerlReward(self.url, per_step=True, on_error=0.0)("d", garbage[1], support.ASTROID_TASK)
        self.assertEqual(per_step, {"score": 0.0, "step_rewards": [], "struct": -1.0, "cov": -1.0, "coh": -1.0, "temp": -1.0})
        with self.assertRaises(SteplensError) as e:
            TrlReward(self.url)(["p"], garbage[:1], task=[support.ASTROID_TASK])
        self.assertEqual(e.exception.code, "bad_input")

    def test_verl_compute_score_returns_the_batch_score(self):
        score = VerlReward(self.url)
        self.assertEqual(score("swe-gym", self.texts[0], support.ASTROID_TASK, {"index": 0}), self.batch[0]["score"]["total"] * 0.01)
        self.assertEqual(score.batch(["swe-gym"] * 3, self.texts, [support.ASTROID_TASK] * 3),
                         [r["score"]["total"] * 0.01 for r in self.batch])
        passed = self.http.score(support.ASTROID_TASK, self.texts[0], passed=False)["score"]["total"] * 0.01
        self.assertEqual(score("swe-gym", self.texts[0], '{"task": "%s", "passed": false}' % support.ASTROID_TASK), passed)
        self.assertEqual(score("swe-gym", self.texts[0], "ignored", {"task": support.ASTROID_TASK, "passed": False}), passed)

    def test_verl_module_entry_point_reads_the_env(self):
        import os
        old = os.environ.get("STEPLENS_URL")
        os.environ["STEPLENS_URL"] = self.url
        try:
            self.assertEqual(rewards_module.compute_score("d", self.texts[1], support.ASTROID_TASK), self.batch[1]["score"]["total"] * 0.01)
            self.assertEqual(rewards_module.compute_score_batch(["d"], self.texts[1:2], [support.ASTROID_TASK]),
                             [self.batch[1]["score"]["total"] * 0.01])
        finally:
            if old is None:
                del os.environ["STEPLENS_URL"]
            else:
                os.environ["STEPLENS_URL"] = old

    def test_per_step_rewards_one_per_step(self):
        rewards = step_rewards(self.url, support.ASTROID_TASK, self.texts[0])
        self.assertEqual(len(rewards), self.batch[0]["steps"])
        self.assertTrue(all(isinstance(r, float) or isinstance(r, int) for r in rewards))
        many = step_rewards_many(self.url, [{"task": support.ASTROID_TASK, "trajectory": t} for t in self.texts])
        self.assertEqual([len(r) for r in many], [r["steps"] for r in self.batch])
        self.assertEqual(many[0], rewards)
        detailed = VerlReward(self.url, per_step=True)("swe-gym", self.texts[0], support.ASTROID_TASK)
        self.assertEqual(detailed["score"], self.batch[0]["score"]["total"] * 0.01)
        self.assertEqual(detailed["step_rewards"], [r * 0.01 for r in rewards])  # on the score's scale
        self.assertEqual(detailed["struct"], self.batch[0]["score"]["struct"])

    def test_per_step_rewards_of_an_output_jsonl_are_the_task_s_instance(self):
        # Each instance of a real 3-instance output.jsonl: the streamed step rewards are that instance's (one per step,
        # summing to its POST /v1/score total), not the first instance's whatever the task.
        path = support.CORPUS / "OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl"
        doc = load(path)
        for inst in doc:
            report = self.http.score(inst["instance_id"], doc)
            got = step_rewards(self.url, inst["instance_id"], doc)
            self.assertEqual(len(got), report["steps"], inst["instance_id"])
            self.assertAlmostEqual(sum(got), report["score"]["total"], places=6)
        per_step = VerlReward(self.url, per_step=True)("swe", path.read_text(encoding="utf-8"), doc[1]["instance_id"], None)
        self.assertAlmostEqual(sum(per_step["step_rewards"]), per_step["score"], places=6)
        with self.assertRaises(SteplensError) as e:
            step_rewards(self.url, "nonesuch", doc)
        self.assertEqual(e.exception.code, "bad_input")

    def test_a_file_that_is_not_a_log_fails_streamed_as_it_fails_scored(self):
        # Real JSON files of the corpus that are not logs (an evaluation summary, a run's metrics, a SWE-bench report):
        # POST /v1/score refuses them `unknown_format` naming what the input is; step_rewards (which splits the log into
        # events on the client) said `bad_input: could not detect the log format` with no more.
        for rel in ("gruckion__mini-swe-agent/swebench_results/20251118_gemini-3-pro-74pct/results_summary.json",
                    "OpenAgentsInc__openagents/results/trajectories/regex-log/20251211-161750-ba4ddb16/metrics.json",
                    "SWE-agent__mini-swe-agent__pull-refs/logs/run_evaluation/deepseek_bench1_eval/deepseek__deepseek-chat/django__django-13401/report.json"):
            doc = load(support.CORPUS / rel)
            with self.assertRaises(SteplensError) as scored:
                self.http.score("django__django-13401", doc)
            with self.assertRaises(SteplensError) as streamed:
                step_rewards(self.url, "django__django-13401", doc)
            self.assertEqual(streamed.exception.code, scored.exception.code, rel)
            self.assertEqual(streamed.exception.code, "unknown_format")
            self.assertEqual(streamed.exception.message, scored.exception.message.split("body.trajectory: ", 1)[1], rel)

    def test_labels(self):
        self.assertEqual(parse_label("django__django-11099"), ("django__django-11099", None))
        self.assertEqual(parse_label('{"task": "t", "passed": true}'), ("t", True))
        for bad in ("", None, "{oops", {"passed": True}):
            with self.assertRaises(SteplensError):
                parse_label(bad)


if __name__ == "__main__":
    unittest.main()
