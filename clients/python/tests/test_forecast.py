"""``reward="forecast"``: the learned P(pass) as a reward, against a real server started with ``--forecast``
(a model trained by ``steplens train`` on the corpus)."""

import json
import shutil
import tempfile
import unittest
from pathlib import Path

import support
from steplens_client import HttpClient, SteplensError, StepHook, TrlReward, VerlReward, forecast_shaping, load, score_request, step_rewards


class ForecastShapingTest(unittest.TestCase):
    def test_potential_based_shaping(self):
        self.assertEqual(forecast_shaping([0.5, 0.25, 0.75], terminal=False), [0.5, -0.25, 0.5])
        shaped = forecast_shaping([0.5, 0.25, 0.75])
        self.assertEqual(shaped, [0.5, -0.25, -0.25])
        self.assertAlmostEqual(sum(shaped), 0.0)
        self.assertEqual(forecast_shaping([0.5, 0.25], gamma=0.5, terminal=False), [0.25, 0.125 - 0.5])


class ForecastRewardTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="steplens-forecast-"))
        model = support.train_forecast(cls.tmp / "forecast.json")
        cls.url, cls.stop = support.start_server(data=str(cls.tmp / "data"), extra=["--forecast", str(model)])
        cls.http = HttpClient(cls.url)
        cls.text = support.ASTROID_FAIL.read_text(encoding="utf-8")
        cls.report = cls.http.score(support.ASTROID_TASK, cls.text)

    @classmethod
    def tearDownClass(cls):
        cls.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_reports_carry_ppass(self):
        self.assertGreater(self.report["pPass"], 0.0)
        self.assertLess(self.report["pPass"], 1.0)

    def test_trl_and_verl_return_the_final_forecast(self):
        trl = TrlReward(self.url, reward="forecast")
        self.assertEqual(trl(["p"], [self.text], task=[support.ASTROID_TASK]), [self.report["pPass"]])
        verl = VerlReward(self.url, reward="forecast")
        self.assertEqual(verl("swe", self.text, support.ASTROID_TASK), self.report["pPass"])

    def test_per_step_rewards_are_the_shaping_of_the_streamed_ppass(self):
        out = VerlReward(self.url, reward="forecast", per_step=True)("swe", self.text, support.ASTROID_TASK)
        self.assertEqual(out["score"], self.report["pPass"])
        steps = out["step_rewards"]
        self.assertEqual(len(steps), self.report["steps"])
        self.assertAlmostEqual(sum(steps), 0.0, places=12)
        # The streamed pPass values rebuild the shaping exactly (V(start) = V(terminal) = 0).
        plain = step_rewards(self.url, support.ASTROID_TASK, self.text)
        self.assertEqual(len(plain), len(steps))
        self.assertNotEqual(plain, steps)

    def test_step_hook_rewards_telescope(self):
        steps = support.steplens_steps(support.ASTROID_FAIL)
        with StepHook(self.url, support.ASTROID_TASK, reward="forecast", gamma=1.0) as hook:
            total = 0.0
            values = []
            for s in steps:
                d = hook.event(s)
                total += d.reward
                if d.frames:
                    values.append(d.p_pass)
            hook.finish(False)
            self.assertAlmostEqual(total, values[-1], places=12)
            self.assertAlmostEqual(total + hook.terminal_reward, 0.0, places=12)
            self.assertEqual(hook.final["pPass"], values[-1])

    def test_forecast_reward_needs_a_forecast_server(self):
        plain = support.server_url()
        with self.assertRaises(SteplensError) as e:
            TrlReward(plain, reward="forecast")(["p"], [self.text], task=[support.ASTROID_TASK])
        self.assertIn("--forecast", str(e.exception))
        with self.assertRaises(SteplensError):
            TrlReward(plain, reward="pass")


if __name__ == "__main__":
    unittest.main()


class ScoreBySourceTest(unittest.TestCase):
    """``score(agent=, model=)``: POST /v1/score took the run's source, and so did ``rank``, but ``score`` and
    ``score_request`` had no way to send it, so a SWE-agent 0.x log (which names no model) got the default model's pPass."""

    def test_score_sends_the_source_and_gets_its_model_as_rank_does(self):
        http = HttpClient(support.shared_server("--forecast", "bundled"))
        doc = load(support.REPO / "test/fixtures/swe-agent-0__django__django-11564.traj.gz")
        task, source = "django__django-11564", {"agent": "SWE-agent 0.x", "model": "gpt-4"}
        plain = http.score(task, doc)["pPass"]
        named = http.score(task, doc, **source)["pPass"]
        ranked = http.rank([{"trajectory": doc}, {"trajectory": doc, "id": "again"}], **source)["runs"][0]["pPass"]
        self.assertEqual(named, ranked)
        self.assertNotAlmostEqual(named, plain, places=3)
        batch = http.score_batch([{"task": task, "trajectory": doc, **source}, score_request(task, doc)], raise_errors=True)
        self.assertEqual([r["pPass"] for r in batch], [named, plain])
        for bad in ("", 7, "x" * 257):
            with self.assertRaises(SteplensError) as e:
                score_request(task, doc, agent=bad)
            self.assertEqual(e.exception.code, "bad_input")
