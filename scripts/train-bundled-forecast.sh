#!/usr/bin/env bash
# Rebuilds data/forecast.json, the forecaster `--forecast bundled` loads (docs/forecast.md, "The bundled forecaster"):
# `steplens train` on the team's public runs with known outcomes, ../shared/calibration (951 runs, outcomes in its
# manifest) and ../shared/corpus (outcomes from the evaluation files beside the runs, sources named by
# bench/early-stop/sources.csv). Needs ../shared beside the checkout, which a clone does not have; the file it writes
# is committed. `train` exits 1 on the one broken CodeR results.json it names and writes the model all the same
# (--lenient keeps that from failing the script).
#   scripts/train-bundled-forecast.sh [SHARED_DIR=../shared]
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${1:-../shared}"
npm run build >/dev/null
node dist/src/cli/main.js train --lenient --seed 1 \
  --manifest "$shared/calibration/manifest.jsonl" --sources bench/early-stop/sources.csv \
  --out data/forecast.json "$shared/calibration" "$shared/corpus" | tee data/forecast-training.txt
