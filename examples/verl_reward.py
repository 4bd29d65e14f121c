"""veRL custom reward function file: `custom_reward_function.path=examples/verl_reward.py`,
`custom_reward_function.name=compute_score` (or `compute_score_batch` with
`reward_model.reward_manager=batch`). The server is $STEPLENS_URL; each sample's
`reward_model.ground_truth` is its task id (or JSON `{"task": ..., "passed": ...}`)."""

import sys
from pathlib import Path

try:
    import steplens_client  # noqa: F401  (installed with `pip install clients/python`)
except ImportError:  # veRL loads this file by path: fall back to the checkout's client
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "clients" / "python"))

from steplens_client.rewards import compute_score, compute_score_batch  # noqa: E402,F401
