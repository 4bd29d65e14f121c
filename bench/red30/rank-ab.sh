#!/bin/sh
# T121 A/B: for each DIST in turn, a fresh ../red28/srv.mjs, bob's 64 sessions of STEPS steps, CALLS rank calls at once.
# sh rank-ab.sh STEPS CALLS DIST...; one JSON line per run (with uptime's load).
here=$(cd "$(dirname "$0")" && pwd)
steps=$1; calls=$2; shift 2
for dist in "$@"; do
  log=$(mktemp)
  node "$here/../red28/srv.mjs" "$dist" 7312 > "$log" 2>&1 &
  while ! grep -q listening "$log"; do sleep 0.5; done
  pid=$(awk '/listening/ {print $2}' "$log")
  echo "$dist load $(uptime | sed 's/.*average: //')"
  node "$here/rank-flood.mjs" 7312 "$pid" 64 "$steps" "$calls" | tail -1
  kill "$pid"; wait "$pid" 2>/dev/null; rm -f "$log"
done
