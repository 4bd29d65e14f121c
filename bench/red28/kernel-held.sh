#!/bin/sh
# Round 28 (T113's "Left:"): answers the kernel takes whole. A fresh server (../upgrade-churn/srv.mjs), bob's ended
# session of 5,000 steps (its step view ~1.4 MB, ../unread-answers/seed.mjs), then K connections with 4 KiB receive
# buffers each asking ONCE for that view and never reading (../unread-answers/hold.py) for H s; every 10 s the kernel's
# unsent bytes on the server's port (ss Send-Q summed, the sockets the process holds and the orphans it closed) and
# /proc/net/sockstat's orphan count. kernel-held.sh DIST K H [LIMIT=VALUE ...]
here=$(cd "$(dirname "$0")" && pwd)
dist=$1 k=$2 h=$3
shift 3
port=$((20000 + $$ % 10000))
work=$(mktemp -d)
(cd "$work" && node "$here/../upgrade-churn/srv.mjs" "$dist" $port "$@" > "$work/srv.log" 2>&1) &
while ! grep -q listening "$work/srv.log" 2>/dev/null; do sleep 0.2; done
srv=$(sed -n 's/^listening //p' "$work/srv.log")
node "$here/../unread-answers/seed.mjs" ws://127.0.0.1:$port/v1/stream bob big 5000 300 > "$work/seed.out"
echo "seed $(cat "$work/seed.out") load $(cut -d' ' -f1 /proc/loadavg)"
python3 "$here/../unread-answers/hold.py" 127.0.0.1 $port bob /v1/sessions/big/steps "$k" 1 50 "$h" > "$work/hold.out" &
hold=$!
t=0
while kill -0 $hold 2>/dev/null; do
  sleep 10; t=$((t + 10))
  q=$(ss -tn "( sport = :$port )" | awk 'NR > 1 && $3 > 0 {n++; s += $3} END {print n + 0, s + 0}')
  echo "t ${t}s: server sockets with unsent bytes / bytes: $q; $(grep '^TCP' /proc/net/sockstat)"
done
wait $hold
echo "hold $(cat "$work/hold.out") load $(cut -d' ' -f1 /proc/loadavg)"
kill "$srv"; sleep 0.5
rm -rf "$work"
