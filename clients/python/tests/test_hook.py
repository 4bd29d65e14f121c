"""StepHook on a real run: it stops the agent where the server's stop signal fires."""

import unittest

import support
from steplens_client import HttpClient, SteplensError, StepHook, events, make_step

#: A tight policy: 10 exploration steps in a row stop the run. (Its blind retries, `python reproduce_issue.py`
#: with a `pip install` between the tries, are not blind since issue 23, so no blind-retry stop fires.)
TIGHT = {"explorationStreak": {"warn": 5, "stop": 10}}


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
        with self.assertRaises(SteplensError) as e:
            StepHook(self.url, support.ASTROID_TASK, reward="pPass")
        self.assertEqual(e.exception.code, "bad_input")
        self.assertIn("reward: expected 'score' or 'forecast' (got 'pPass')", str(e.exception))
        with self.assertRaises(SteplensError) as e:
            StepHook(self.url, support.ASTROID_TASK, policy={"blindRetry": {"warn": 3, "stop": 2}})
        self.assertIn("blindRetry.warn (3) must be below blindRetry.stop (2)", str(e.exception))


class MakeStepTest(unittest.TestCase):
    """``make_step`` refuses what a step cannot hold with the client's own ``bad_input`` naming the argument (it raised a
    bare ValueError for an action without kind, and TypeError / KeyError or nothing for the rest)."""

    def test_each_kind_of_action(self):
        self.assertEqual(make_step({"kind": "edit", "op": "str_replace", "path": "a.py", "old": "x", "new": "y"}, "done", thought="fix"),
                         {"tool": "str_replace_editor", "action": {"kind": "edit", "op": "str_replace", "path": "a.py", "old": "x", "new": "y"},
                          "observation": "done", "thought": "fix"})
        self.assertEqual(make_step({"kind": "other", "name": "browse"}, tool="browser", t=3),
                         {"tool": "browser", "action": {"kind": "other", "name": "browse"}, "t": 3})
        self.assertEqual(make_step({"kind": "finish"})["tool"], "finish")

    def test_bad_input_names_what_is_wrong(self):
        cases = [
            (({"path": "x"},), {}, "action: the action object has no 'kind' (one of shell, code, view, edit"),
            ((None,), {}, "action: expected a shell command string or an action object with 'kind' (got None)"),
            ((3,), {}, "action: expected a shell command string or an action object with 'kind' (got 3)"),
            ((["ls"],), {}, "(got ['ls'])"),
            (({"kind": 5},), {}, "action.kind: expected one of shell, code, view, edit, search, list, think, finish, message, none, other (got 5)"),
            (({"kind": "bash"},), {}, "action.kind: expected one of shell, "),
            (({"kind": "shell"},), {}, "action.command: a 'shell' action needs a string command (missing)"),
            (({"kind": "edit", "path": "a.py"},), {}, "action.op: a 'edit' action needs a string op (missing)"),
            (({"kind": "view", "path": 7},), {}, "action.path: a 'view' action needs a string path (got 7)"),
            (("ls", b"bytes"), {}, "observation: expected a string (got b'bytes')"),
            (("ls",), {"exit_code": "1"}, "exit_code: expected an integer (got '1')"),
            (("ls",), {"exit_code": True}, "exit_code: expected an integer (got True)"),
            (("ls",), {"tool": ""}, "tool: expected a non-empty string (got '')"),
            (("ls",), {"args": ["x"]}, "args: expected a mapping (got ['x'])"),
            (("ls",), {"tokens": 12}, "tokens: expected a mapping (got 12)"),
            (("ls",), {"thought": 1.5}, "thought: expected a string (got 1.5)"),
            (("x" * 200, 5), {}, "observation: expected a string (got 5)"),
            (({"kind": "code", "language": "python", "code": "y" * 300, "x": object()},), {}, None),
        ]
        for args, kwargs, message in cases:
            with self.subTest(args=args, kwargs=kwargs):
                if message is None:
                    self.assertEqual(make_step(*args, **kwargs)["tool"], "ipython")
                    continue
                with self.assertRaises(SteplensError) as e:
                    make_step(*args, **kwargs)
                self.assertEqual(e.exception.code, "bad_input")
                self.assertIn(message, str(e.exception))
                self.assertLess(len(str(e.exception)), 300)

    def test_a_long_value_is_cut_in_the_message(self):
        with self.assertRaises(SteplensError) as e:
            make_step({"text": "z" * 10_000})
        self.assertIn("...", str(e.exception))
        self.assertLess(len(str(e.exception)), 300)


if __name__ == "__main__":
    unittest.main()
