"""StepHook on a real run: it stops the agent where the server's stop signal fires."""

import unittest

import support
from steplens_client import HttpClient, SteplensError, StepHook, events, make_step

#: A tight policy: 15 exploration steps in a row stop the run. (Its blind retries, `python reproduce_issue.py`
#: with a `pip install` between the tries, are not blind since issue 23, so no blind-retry stop fires.)
TIGHT = {"explorationStreak": {"warn": 10, "stop": 15}}


class HookTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.url = support.server_url()
        cls.http = HttpClient(cls.url)
        cls.steps = support.steplens_steps(support.ASTROID_FAIL)
        report = cls.http.score(support.ASTROID_TASK, cls.steps, policy=TIGHT)
        stops = [s for s in report["signals"] if s["severity"] == "stop"]
        cls.stop = stops[0]

    def test_stops_at_the_stop_signal_of_a_real_run(self):
        self.assertEqual(self.stop["kind"], "exploration_streak")
        with StepHook(self.url, support.ASTROID_TASK, policy=TIGHT) as hook:
            ran = 0
            for s in self.steps:
                extra = {k: s[k] for k in ("timestamp", "id") if k in s}
                d = hook.step(s["action"], s.get("observation"), exit_code=s.get("exitCode"), tool=s["tool"], args=s.get("args"),
                              thought=s.get("thought"), tokens=s.get("tokens"), **extra)
                ran += 1
                self.assertEqual(len(d.frames), 1)
                if d.stop:
                    break
            self.assertEqual(ran, self.stop["t"] + 1)
            self.assertIn("exploration_streak (stop)", d.reason)
            self.assertEqual([s["kind"] for s in d.signals if s["severity"] == "stop"], ["exploration_streak"])
            final = hook.finish(passed=False)
        truncated = self.http.score(support.ASTROID_TASK, self.steps[:ran], policy=TIGHT, passed=False)
        self.assertEqual(final["steps"], ran)
        self.assertEqual(final["score"], truncated["score"])
        self.assertEqual(d.score, truncated["score"]["total"])

    def test_raw_events_and_default_policy_run_to_the_end(self):
        doc = support.read_json(support.ASTROID_FAIL)
        batch = self.http.score(support.ASTROID_TASK, doc)
        with StepHook(self.url, support.ASTROID_TASK, format="mini-swe-agent") as hook:
            decisions = [hook.event(e) for e in events(doc)]
            final = hook.finish()
        self.assertEqual(sum(len(d.frames) for d in decisions), batch["steps"])
        self.assertEqual(final["score"], batch["score"])
        self.assertEqual(hook.stopped, any(s["severity"] == "stop" for s in batch["signals"]))

    def test_make_step_and_bad_policy(self):
        self.assertEqual(make_step("ls -la", "a\nb", exit_code=0),
                         {"tool": "bash", "action": {"kind": "shell", "command": "ls -la"}, "args": {"command": "ls -la"},
                          "observation": "a\nb", "exitCode": 0})
        with self.assertRaises(ValueError):
            make_step({"path": "x"})
        with self.assertRaises(SteplensError) as e:
            StepHook(self.url, support.ASTROID_TASK, policy={"blindRetry": {"warn": 3, "stop": 2}})
        self.assertIn("blindRetry.warn (3) must be below blindRetry.stop (2)", str(e.exception))


if __name__ == "__main__":
    unittest.main()
