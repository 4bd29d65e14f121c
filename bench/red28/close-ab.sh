#!/bin/sh
# Round 28, T118: close-held.sh with base and head alternated A B B A. close-ab.sh BASE_DIST HEAD_DIST K H S [LIMIT=VALUE ...]
here=$(cd "$(dirname "$0")" && pwd)
base=$1 head=$2
shift 2
for b in base head head base; do
  eval d=\$$b
  echo "== $b"
  "$here/close-held.sh" "$d" "$@"
done
