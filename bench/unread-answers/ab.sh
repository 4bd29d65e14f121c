#!/bin/sh
# Base and head alternated (T113): ab.sh BASE_DIST HEAD_DIST ROUNDS K P G H [LIMIT=VALUE ...]. Each run: a fresh server
# (../upgrade-churn/srv.mjs, tokens alice, bob, ops, in a scratch folder), bob's ended session of 5,000 steps (seed.mjs:
# its step view ~1.4 MB), then hold.py: K connections with 4 KiB receive buffers each asking P times for that view, G ms
# between requests, never reading, for H s; alice's /healthz every 10 ms meanwhile (../upgrade-churn/ping.mjs). Sampled
# every 0.5 s: the server's RSS; once, H - 3 s after the start: its RSS and its sockets' Send-Q summed (ss: bytes the
# kernel holds unsent).
here=$(cd "$(dirname "$0")" && pwd)
base=$1 head=$2 rounds=$3 k=$4 p=$5 g=$6 h=$7
shift 7
port=$((20000 + $$ % 10000))
work=$(mktemp -d)
run() {
  name=$1 dist=$2
  rm -f "$work/srv.log"
  shift 2
  (cd "$work" && node "$here/../upgrade-churn/srv.mjs" "$dist" $port "$@" > "$work/srv.log" 2>&1) &
  while ! grep -q listening "$work/srv.log" 2>/dev/null; do sleep 0.2; done
  srv=$(sed -n 's/^listening //p' "$work/srv.log")
  node "$here/seed.mjs" ws://127.0.0.1:$port/v1/stream bob big 5000 300 > "$work/seed.out"
  rss0=$(awk '/VmRSS/ {print $2}' /proc/$srv/status)
  python3 "$here/hold.py" 127.0.0.1 $port bob /v1/sessions/big/steps "$k" "$p" "$g" "$h" > "$work/hold.out" &
  hold=$!
  node "$here/../upgrade-churn/ping.mjs" http://127.0.0.1:$port $((h - 2)) > "$work/ping.out" &
  ping=$!
  max=$rss0 sendq=- rssq=- at=$(( $(date +%s) + h - 3 ))
  while kill -0 $hold 2>/dev/null; do
    r=$(awk '/VmRSS/ {print $2}' /proc/$srv/status); [ "$r" -gt "$max" ] && max=$r
    if [ "$sendq" = - ] && [ "$(date +%s)" -ge $at ]; then sendq=$(ss -tn "( sport = :$port )" | awk 'NR > 1 {s += $3} END {print s + 0}'); rssq=$r; fi
    sleep 0.5
  done
  wait $hold $ping
  refused=$(curl -s -H 'authorization: Bearer ops' 127.0.0.1:$port/metrics | grep '^steplens_refusals_total' | tr '\n' ' ')
  echo "$name seed $(cat "$work/seed.out") hold $(cat "$work/hold.out") ping $(cat "$work/ping.out") rss_kb $rss0->max $max, at H-3 s $rssq sendq_bytes $sendq refusals $refused load $(cut -d' ' -f1 /proc/loadavg)"
  kill "$srv"; sleep 0.5
}
for i in $(seq "$rounds"); do
  if [ $((i % 2)) -eq 1 ]; then run base "$base" "$@"; run head "$head" "$@"; else run head "$head" "$@"; run base "$base" "$@"; fi
done
rm -rf "$work"
