#!/usr/bin/env python3
"""An agent loop that stops itself on a steplens `stop` signal.

It replays a real run (mini-swe-agent 2.2.7 + deepseek-chat on pylint-dev__astroid-1196, NOT
resolved) as if the agent were producing it now: each message the agent appends to its history
goes through a StepHook, and the loop ends as soon as the server says stop. Under the tight
policy used here (10 exploration steps in a row stop the run) the agent is stopped at step 13
of 79, and the steps it did not take are what stopping saved. (Writing a script, as it does at steps 1
and 14, ends a streak.) (Its three runs of
`python reproduce_issue.py` have a `pip install` between them: not a blind retry.)
"""

import sys

from _common import MINI, arguments

from steplens_client import SteplensError, StepHook, detect_format, load

RUN = MINI / "deepseek_lite_dev_noparallel" / "pylint-dev__astroid-1196.traj.json"
TASK = "pylint-dev__astroid-1196"
POLICY = {"explorationStreak": {"warn": 5, "stop": 10}}


def agent_messages():
    """Stands in for the agent: yields its messages in the order it wrote them."""
    yield from load(RUN)["messages"]


def read_messages(path: str) -> list:
    """The messages of a mini-swe-agent trajectory file; ``bad_input`` for a log of another format."""
    doc = load(path)
    fmt = detect_format(doc)
    if fmt != "mini-swe-agent":
        raise SteplensError("bad_input", f"not a mini-swe-agent trajectory (its format: {fmt or 'not one steplens reads'})")
    return doc["messages"]


def main() -> int:
    parser = arguments(__doc__.splitlines()[0])
    parser.add_argument("--run", default=str(RUN), help="a mini-swe-agent .traj.json to replay")
    parser.add_argument("--task", default=TASK)
    args = parser.parse_args()
    try:
        messages = read_messages(args.run) if args.run != str(RUN) else list(agent_messages())
    except (OSError, SteplensError) as e:
        print(f"agent_loop_stop: --run {args.run}: {getattr(e, 'message', None) or e.strerror or e}", file=sys.stderr)
        return 1
    i = -1
    try:
        with StepHook(args.url, args.task, format="mini-swe-agent", policy=POLICY, token=args.token) as hook:
            print(f"session {hook.session.id}: task {args.task}, reference {hook.session.reference}")
            decision = None
            for i, message in enumerate(messages):
                decision = hook.event(message)  # the agent just appended `message` to its history
                for f in decision.frames:
                    print(f"  step {f['t']:3d} {f['stage']}  score {f['score']['total']:6.2f}  reward {f['reward']:+7.3f}")
                for s in decision.signals:
                    print(f"  signal {s['kind']} ({s['severity']}) at step {s['t']}: {s['message']}")
                if decision.stop:
                    print(f"stopping after message {i + 1} of {len(messages)}: {decision.reason}")
                    break
            else:
                print("the run ended without a stop signal")
            final = hook.finish(passed=False)
    except SteplensError as e:
        print(f"agent_loop_stop: {e}", file=sys.stderr)
        return 1
    skipped = len(messages) - (i + 1)
    print(f"final: score {final['score']['total']:.2f}, tier {final['tier']}, {final['steps']} steps scored, "
          f"{skipped} messages not run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
