"""The examples under examples/ run against a real server and exit 0."""

import os
import subprocess
import sys
import unittest

import support
from steplens_client import HttpClient

EXAMPLES = support.REPO / "examples"


def run(name: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "STEPLENS_URL": support.server_url(), "STEPLENS_CORPUS": str(support.CORPUS)}
    return subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=support.REPO, env=env, capture_output=True, text=True, timeout=120)


class ExamplesTest(unittest.TestCase):
    def test_agent_loop_stops_itself(self):
        out = run("agent_loop_stop.py")
        self.assertEqual(out.returncode, 0, out.stderr + out.stdout)
        self.assertRegex(out.stdout, r"stopping after message \d+ of \d+: exploration_streak \(stop\) at step 13")
        self.assertRegex(out.stdout, r"final: score [\d.]+, tier \S+, 14 steps scored, \d+ messages not run")

    def test_agent_loop_run_that_is_not_mini_swe_agent_is_one_error_line(self):
        # --run takes a mini-swe-agent .traj.json: another log (a real SWE-agent run) or a missing file was a traceback
        # (KeyError: 'messages', FileNotFoundError).
        for path, why in ((str(EXAMPLES / "runs/swe-agent-1/kimi-k2-instruct-0905/dask__dask-8685.traj"), "not a mini-swe-agent trajectory (its format: swe-agent)"),
                          (str(EXAMPLES / "runs/nonesuch.traj.json"), "No such file or directory")):
            out = run("agent_loop_stop.py", "--run", path)
            self.assertEqual(out.returncode, 1, out.stdout)
            self.assertEqual(out.stderr, f"agent_loop_stop: --run {path}: {why}\n")

    def test_grpo_group_prints_advantages(self):
        out = run("grpo_group.py")
        self.assertEqual(out.returncode, 0, out.stderr + out.stdout)
        lines = [l for l in out.stdout.splitlines() if "advantage" in l]
        self.assertEqual(len(lines), 4)
        self.assertIn("one POST /v1/score/batch", out.stdout)
        # The rollout with no step is refused as steplens score refuses it (audit23), and gets the group's lowest reward.
        self.assertRegex(lines[3], r"error bad_input: .*no steps found, nothing to score$")
        self.assertEqual(lines[3].split("reward ")[1][:6], min(l.split("reward ")[1][:6] for l in lines[:3]))

    def test_verl_reward_file_loads_by_path_as_verl_does(self):
        code = ("import importlib.util, sys\n"
                f"spec = importlib.util.spec_from_file_location('custom_module', {str(EXAMPLES / 'verl_reward.py')!r})\n"
                "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
                f"print(m.compute_score('swe-gym', open({str(support.ASTROID_FAIL)!r}).read(), {support.ASTROID_TASK!r}))\n")
        env = {**os.environ, "STEPLENS_URL": support.server_url()}
        out = subprocess.run([sys.executable, "-c", code], cwd="/", env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        report = HttpClient(support.server_url()).score(support.ASTROID_TASK, support.read_json(support.ASTROID_FAIL))
        self.assertEqual(float(out.stdout), report["score"]["total"] * 0.01)

if __name__ == "__main__":
    unittest.main()
