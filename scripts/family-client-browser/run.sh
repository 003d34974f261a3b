#!/bin/sh
# ./run.sh <finapi build dir (with dist/finapi.js)> [api port 3920] [client port 8088]
set -e
FIN=${1:-$(cd "$(dirname "$0")/../.." && pwd)}; API_PORT=${2:-3920}; CLIENT_PORT=${3:-8088}
shift $(( $# < 3 ? $# : 3 ))
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$(mktemp -d /tmp/finapi-family-client-data-XXXX)
PW='Adm1n-Drive-45!'
(cd "$FIN" && exec env DATA_DIR=$DATA PORT=$API_PORT ADMIN_PASSWORD=$PW node dist/finapi.js > "$DATA.log" 2>&1) & FINPID=$!
node "$HERE/serve.mjs" --port "$CLIENT_PORT" --api "http://127.0.0.1:$API_PORT" > "$DATA.serve.log" 2>&1 & SERVEPID=$!
trap 'kill $SERVEPID; kill $FINPID' EXIT
i=0; until curl -sf -o /dev/null "http://127.0.0.1:$API_PORT/api/v1/actuator/health"; do i=$((i+1)); [ $i -gt 100 ] && { echo "finapi did not start: $DATA.log"; exit 1; }; sleep 3; done
node "$HERE/drive.mjs" --api "http://127.0.0.1:$API_PORT" --client "http://127.0.0.1:$CLIENT_PORT" --admin-password "$PW" "$@"
