#!/bin/sh
# Base and head alternated (T112): ab.sh BASE_DIST HEAD_DIST ROUNDS S K RATE. Each run: a fresh server, bob's churn
# (churn.mjs, K loops at RATE attempts a second each, 0 = flat out; K 0 = no churn) from 1 s before alice's pings
# (ping.mjs, S s) to their end, the server's RSS sampled every 0.5 s, its CPU (utime + stime, ticks of 10 ms) over the run.
here=$(cd "$(dirname "$0")" && pwd)
base=$1 head=$2 rounds=$3 s=$4 k=$5 rate=$6
port=$((20000 + $$ % 10000))
run() {
  name=$1 dist=$2
  node "$here/srv.mjs" "$dist" $port > /tmp/churn-srv.$$ 2>&1 &
  srv=$!
  while ! grep -q listening /tmp/churn-srv.$$ 2>/dev/null; do sleep 0.2; done
  rss0=$(awk '/VmRSS/ {print $2}' /proc/$srv/status)
  cpu0=$(awk '{print $14 + $15}' /proc/$srv/stat)
  if [ "$k" -gt 0 ]; then node "$here/churn.mjs" ws://127.0.0.1:$port/v1/stream bob $((s + 2)) "$k" "$rate" > /tmp/churn-out.$$ & churn=$!; sleep 1; fi
  node "$here/ping.mjs" http://127.0.0.1:$port "$s" > /tmp/churn-ping.$$ &
  ping=$!
  max=$rss0
  while kill -0 $ping 2>/dev/null; do
    r=$(awk '/VmRSS/ {print $2}' /proc/$srv/status); [ "$r" -gt "$max" ] && max=$r; sleep 0.5
  done
  [ "$k" -gt 0 ] && wait $churn
  cpu=$(( $(awk '{print $14 + $15}' /proc/$srv/stat) - cpu0 ))
  echo "$name ping $(cat /tmp/churn-ping.$$) churn $( [ "$k" -gt 0 ] && cat /tmp/churn-out.$$) rss_kb $rss0->$max server_cpu_ticks $cpu load $(cut -d' ' -f1 /proc/loadavg)"
  kill $srv; wait $srv 2>/dev/null
}
for i in $(seq "$rounds"); do
  if [ $((i % 2)) -eq 1 ]; then run base "$base"; run head "$head"; else run head "$head"; run base "$base"; fi
done
rm -f /tmp/churn-srv.$$ /tmp/churn-out.$$ /tmp/churn-ping.$$
