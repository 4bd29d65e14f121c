"""Shared by the examples: make ``steplens_client`` importable from a checkout, find the sample runs, read --url."""

import argparse
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
try:
    import steplens_client  # noqa: F401  (installed with `pip install clients/python`)
except ImportError:
    sys.path.insert(0, str(REPO / "clients" / "python"))

#: Real runs shipped with the repository (examples/runs/README.md names their sources).
RUNS = REPO / "examples" / "runs"
MINI = RUNS / "mini-swe-agent"


def arguments(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--url", default=os.environ.get("STEPLENS_URL", "http://127.0.0.1:8787"),
                        help="steplens server (default $STEPLENS_URL or http://127.0.0.1:8787)")
    parser.add_argument("--token", default=os.environ.get("STEPLENS_TOKEN"), help="bearer token, if the server wants one")
    return parser
