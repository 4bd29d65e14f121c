#!/bin/bash
# Holds a forecaster out by source through the user's path (docs/forecast.md, "Measured on ../shared/calibration"):
# for each source S of MANIFEST (by its agent), `train` without S's runs, then `report --json --forecast` on S's runs;
# then bench/report-separation.js puts the held-out reports together (within source with intervals, within task, pooled).
#   bench/forecast-loso.sh CLI_MAIN_JS MANIFEST.jsonl OUT_DIR
# CLI_MAIN_JS: a built steplens (e.g. dist/src/cli/main.js, or another checkout's, to compare builds).
set -euo pipefail
cli=$(realpath "$1"); manifest=$(realpath "$2"); out=$3
here=$(dirname "$(realpath "$0")")
mkdir -p "$out"
python3 - "$manifest" "$out" <<'PY'
import json, os, sys
manifest, out = sys.argv[1], sys.argv[2]
base = os.path.dirname(manifest)
rows = [json.loads(l) for l in open(manifest) if l.strip()]
for i, agent in enumerate(sorted({r['agent'] for r in rows})):
    for name, keep in ((f'without-{i}', lambda r: r['agent'] != agent), (f'only-{i}', lambda r: r['agent'] == agent)):
        with open(os.path.join(out, f'{name}.jsonl'), 'w') as f:
            for r in rows:
                if keep(r):
                    f.write(json.dumps({**r, 'file': os.path.join(base, r['file'])}) + '\n')
PY
reports=()
for only in "$out"/only-*.jsonl; do
  i=${only##*/only-}; i=${i%.jsonl}
  files() { python3 -c "import json,sys; [print(json.loads(l)['file']) for l in open(sys.argv[1])]" "$1"; }
  mapfile -t train_files < <(files "$out/without-$i.jsonl")
  mapfile -t held_files < <(files "$only")
  node "$cli" train --manifest "$out/without-$i.jsonl" --out "$out/model-without-$i.json" --seed 1 "${train_files[@]}" > "$out/train-without-$i.txt"
  node "$cli" report --json --lenient --forecast "$out/model-without-$i.json" --manifest "$only" "${held_files[@]}" > "$out/report-$i.json"
  reports+=("$out/report-$i.json")
done
node "$(dirname "$here")/dist/bench/report-separation.js" "${reports[@]}"
