#!/bin/sh
# fcast30: the forecaster's parts switched off one at a time in copies of dist (edits of the built JS, never of src),
# each copy's push-cpu.mjs ratio (model / none) beside the unchanged build's, ROUNDS rounds in rotation.
#   sh bench/fcast30/ablate.sh [ROUNDS=5] [PASSES=1200]   (after `node scripts/build.mjs`)
# stub: the forecaster's add returns its first pPass (no feature work); noev: no evidence tracker (process features
# only); noscan: evidence without the output's test-line scan (every mask 0, so no test summary is parsed).
set -e
here=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-5}
passes=${2:-1200}
tmp=$(mktemp -d /tmp/fcast30-ablate.XXXXXX)
for v in stub noev noscan; do
  mkdir -p "$tmp/$v"
  cp -r "$here/dist" "$tmp/$v/dist"
  ln -s "$here/node_modules" "$tmp/$v/node_modules"
done
f=dist/src/core/forecast/forecaster.js
# stub: drop the two lines of the 'model' forecaster's add that update the features and pPass.
sed -i '/^ *features.add(step, state, label);$/{N;/current = pPassOf(compiled, features.write(SCRATCH));/d}' "$tmp/stub/$f"
sed -i "s/createFeatureTracker(which === 'all' || model.features, retry)/createFeatureTracker(which === 'all', retry)/" "$tmp/noev/$f"
sed -i 's/: scanTestLines(out, scanAt)/: 0/' "$tmp/noscan/dist/src/core/evidence/step-evidence.js"
grep -q 'pPassOf(compiled, features.write(SCRATCH));' "$tmp/stub/$f" && [ "$(grep -c 'features.add(step, state, label);' "$tmp/stub/$f")" = 1 ] || { echo 'ablate: stub edit did not apply' >&2; exit 1; }
grep -q "createFeatureTracker(which === 'all', retry)" "$tmp/noev/$f" || { echo 'ablate: noev edit did not apply' >&2; exit 1; }
grep -q ': 0;' "$tmp/noscan/dist/src/core/evidence/step-evidence.js" || { echo 'ablate: noscan edit did not apply' >&2; exit 1; }
for r in $(seq "$rounds"); do
  for v in head stub noev noscan; do
    if [ "$v" = head ]; then root=$here; else root=$tmp/$v; fi
    echo "$r $v $(ROOT=$root node "$here/bench/fcast30/push-cpu.mjs" both "$passes") load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
rm -rf "$tmp"
