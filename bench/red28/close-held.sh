#!/bin/sh
# Round 28: close-hold.py against a fresh server (../upgrade-churn/srv.mjs) and bob's ended session of S steps
# (../unread-answers/seed.mjs); every 5 s the server process's open sockets, the kernel's unsent bytes on its port
# (ss Send-Q summed, live sockets and orphans alike) and /proc/net/sockstat's orphans; alice's /healthz every 10 ms
# meanwhile (../upgrade-churn/ping.mjs). close-held.sh DIST K H S [LIMIT=VALUE ...]
here=$(cd "$(dirname "$0")" && pwd)
dist=$1 k=$2 h=$3 steps=$4
shift 4
port=$((20000 + $$ % 10000))
work=$(mktemp -d)
(cd "$work" && node "$here/../upgrade-churn/srv.mjs" "$dist" $port "$@" > "$work/srv.log" 2>&1) &
while ! grep -q listening "$work/srv.log" 2>/dev/null; do sleep 0.2; done
srv=$(sed -n 's/^listening //p' "$work/srv.log")
node "$here/../unread-answers/seed.mjs" ws://127.0.0.1:$port/v1/stream bob big "$steps" 300 > "$work/seed.out"
echo "seed $(cat "$work/seed.out") load $(cut -d' ' -f1 /proc/loadavg)"
python3 "$here/close-hold.py" 127.0.0.1 $port bob /v1/sessions/big/steps "$k" "$h" > "$work/hold.out" &
hold=$!
node "$here/../upgrade-churn/ping.mjs" http://127.0.0.1:$port $((h + 5)) > "$work/ping.out" &
ping=$!
t=0
while kill -0 $hold 2>/dev/null; do
  sleep 5; t=$((t + 5))
  q=$(ss -tn "( sport = :$port )" | awk 'NR > 1 && $3 > 0 {n++; s += $3} END {print n + 0, s + 0}')
  echo "t ${t}s: server fds (sockets) $(ls -l /proc/$srv/fd 2>/dev/null | grep -c socket); sockets with unsent bytes / bytes: $q; $(grep '^TCP' /proc/net/sockstat)"
done
wait $hold $ping
refused=$(curl -s -H 'authorization: Bearer ops' 127.0.0.1:$port/metrics | grep '^steplens_refusals_total' | tr '\n' ' ')
echo "hold $(cat "$work/hold.out") alice $(cat "$work/ping.out") refusals $refused load $(cut -d' ' -f1 /proc/loadavg)"
kill "$srv"; sleep 0.5
rm -rf "$work"
