#!/bin/sh
# Base and head alternated (T115): ab.sh BASE_DIST HEAD_DIST ROUNDS K S. Each run: a fresh server
# (../upgrade-churn/srv.mjs: tokens alice, bob, ops, in a scratch folder), bob's ended session of 5,000 steps and
# alice's of 200 (../unread-answers/seed.mjs), then views.mjs: bob's K loops of GET .../steps against alice's one.
here=$(cd "$(dirname "$0")" && pwd)
base=$1 head=$2 rounds=$3 k=$4 s=$5
port=$((20000 + $$ % 10000))
work=$(mktemp -d)
run() {
  name=$1 dist=$2
  rm -f "$work/srv.log"
  (cd "$work" && exec node "$here/../upgrade-churn/srv.mjs" "$dist" $port > "$work/srv.log" 2>&1) &
  while ! grep -q listening "$work/srv.log" 2>/dev/null; do sleep 0.2; done
  srv=$(sed -n 's/^listening //p' "$work/srv.log")
  node "$here/../unread-answers/seed.mjs" ws://127.0.0.1:$port/v1/stream bob big 5000 300 > /dev/null
  node "$here/../unread-answers/seed.mjs" ws://127.0.0.1:$port/v1/stream alice small 200 300 > /dev/null
  echo "$name $(node "$here/views.mjs" http://127.0.0.1:$port big small "$k" "$s") load $(cut -d' ' -f1 /proc/loadavg)"
  kill "$srv"; sleep 0.5
}
for i in $(seq "$rounds"); do
  if [ $((i % 2)) -eq 1 ]; then run base "$base"; run head "$head"; else run head "$head"; run base "$base"; fi
done
rm -rf "$work"
