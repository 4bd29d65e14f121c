#!/usr/bin/env python3
"""A GRPO-style group: several real rollouts of one task scored in one batch call, turned into
group-relative advantages (reward minus the group mean, over the group's standard deviation).

The group is the four published mini-swe-agent runs on pylint-dev__astroid-1196 (deepseek-chat
twice RESOLVED, once NOT; deepseek-reasoner timed out with no steps). steplens scores them
against the task's bundled reference. A rollout the server refuses comes back as a per-item error
and gets the group's lowest reward, as a trainer would do with a failed rollout: so does the empty
one, which the server refuses as `steplens score` does (bad_input, "no steps found, nothing to
score": a report carries a tier, and a run with no step has none to give).
"""

import statistics
import sys

from _common import MINI, arguments

from steplens_client import HttpClient, SteplensError, load

TASK = "pylint-dev__astroid-1196"
GROUP = [  # (run, test outcome from the SWE-bench harness report)
    ("deepseek_chat_dev", True),
    ("deepseek_chat_dev_rerun", True),
    ("deepseek_lite_dev_noparallel", False),
    ("deepseek_reasoner_dev", False),
]


def main() -> int:
    args = arguments(__doc__.splitlines()[0]).parse_args()
    http = HttpClient(args.url, token=args.token)
    items = [{"task": TASK, "trajectory": load(MINI / run / f"{TASK}.traj.json"), "passed": passed} for run, passed in GROUP]
    try:
        results = http.score_batch(items)
    except SteplensError as e:
        print(f"grpo_group: {e}", file=sys.stderr)
        return 1
    scored = [r["score"]["total"] / 100 for r in results if not isinstance(r, SteplensError)]
    if not scored:
        print("grpo_group: no rollout of the group could be scored", file=sys.stderr)
        return 1
    floor = min(scored)
    rewards = [floor if isinstance(r, SteplensError) else r["score"]["total"] / 100 for r in results]
    mean, std = statistics.fmean(rewards), statistics.pstdev(rewards)
    print(f"task {TASK}: {len(GROUP)} rollouts, one POST /v1/score/batch; group mean {mean:.4f}, std {std:.4f}")
    for (run, passed), r, reward in zip(GROUP, results, rewards):
        advantage = (reward - mean) / (std + 1e-6)
        what = f"error {r.code}: {r.message}" if isinstance(r, SteplensError) else \
            f"tier {r['tier']:<12} {r['steps']:3d} steps, reference {r['reference']['kind']}"
        print(f"  {run:<30} passed={str(passed):<5} reward {reward:.4f}  advantage {advantage:+.3f}  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
