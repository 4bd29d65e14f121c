#!/bin/sh
# Round 28, item 1 under load: a fresh server (srv.mjs), alice's /healthz every 10 ms (../upgrade-churn/ping.mjs) for
# S s alone, then for S s while bob's card.mjs floods N distinct names; the scrape before and after. Alternated
# R times (quiet, flood). card-ping.sh DIST N S R
here=$(cd "$(dirname "$0")" && pwd)
dist=$1 n=$2 s=$3 r=$4
port=$((20000 + $$ % 10000))
work=$(mktemp -d)
(cd "$work" && LEARN_MS=600000 node "$here/srv.mjs" "$dist" $port > "$work/srv.log" 2>&1) &
while ! grep -q listening "$work/srv.log" 2>/dev/null; do sleep 0.2; done
srv=$(sed -n 's/^listening \([0-9]*\).*/\1/p' "$work/srv.log")
for i in $(seq "$r"); do
  echo "quiet: alice $(node "$here/../upgrade-churn/ping.mjs" http://127.0.0.1:$port "$s") load $(cut -d' ' -f1 /proc/loadavg)"
  node "$here/card.mjs" http://127.0.0.1:$port "$n" > "$work/card.out" &
  card=$!
  echo "flood: alice $(node "$here/../upgrade-churn/ping.mjs" http://127.0.0.1:$port "$s") load $(cut -d' ' -f1 /proc/loadavg)"
  wait $card
  sed 's/^/  /' "$work/card.out" | head -4
done
echo "server rss_kb $(awk '/VmRSS/ {print $2}' /proc/$srv/status) cpu_ticks $(awk '{print $14 + $15}' /proc/$srv/stat)"
kill "$srv"
rm -rf "$work"
