#!/bin/sh
# Base and head alternated (T114): ws-ab.sh BASE_DIST HEAD_DIST ROUNDS K N S. Each run: a fresh server
# (../upgrade-churn/srv.mjs, wsPingIntervalMs=2000 so that the probe is short), ws-hold.mjs with bob's token, and the
# server's sockets' Send-Q summed (ss) at the end.
here=$(cd "$(dirname "$0")" && pwd)
base=$1 head=$2 rounds=$3 k=$4 n=$5 s=$6
port=$((20000 + $$ % 10000))
work=$(mktemp -d)
run() {
  name=$1 dist=$2
  rm -f "$work/srv.log"
  (cd "$work" && exec node "$here/../upgrade-churn/srv.mjs" "$dist" $port wsPingIntervalMs=2000 > "$work/srv.log" 2>&1) &
  while ! grep -q listening "$work/srv.log" 2>/dev/null; do sleep 0.2; done
  srv=$(sed -n 's/^listening //p' "$work/srv.log")
  out=$(node "$here/ws-hold.mjs" ws://127.0.0.1:$port/v1/stream bob ops "$k" "$n" "$s" 2>&1)
  echo "$name $out rss_kb $(awk '/VmRSS/ {print $2}' /proc/$srv/status) load $(cut -d' ' -f1 /proc/loadavg)"
  kill "$srv"; sleep 0.5
}
for i in $(seq "$rounds"); do
  if [ $((i % 2)) -eq 1 ]; then run base "$base"; run head "$head"; else run head "$head"; run base "$base"; fi
done
rm -rf "$work"
