#!/bin/sh
# `make cluster`: one room served by several shedkit nodes on loopback, as in production
# but on one machine. The nodes share a PostgreSQL database and a Redis, which
# scripts/server-test-deps.sh brings up (the same ones the server tests use) and which stay
# running after the nodes stop. Node a listens on PORT+1, b on PORT+2 and so on; each one's
# log is build/cluster/node-NAME.log.
#
#   sh scripts/cluster.sh [--port PORT] [--nodes N] [--keep-db] [--dry-run]
#
# Each start is a fresh room: the database shedkit_cluster is dropped and created again, so
# no table of an earlier run is claimed and restored. --keep-db (or KEEP_DB=1; make cluster
# KEEP_DB=1) keeps it and its tables instead; the drop fails while another process (a
# cluster still running) uses the database. --dry-run prints the nodes' command lines and
# starts nothing. Ctrl-C (or SIGTERM) stops the nodes and the script exits 0.
set -eu
cd "$(dirname "$0")/.."

usage() {
    echo "usage: sh scripts/cluster.sh [--port PORT] [--nodes N] [--keep-db] [--dry-run]" >&2
    exit 2
}

PORT=${PORT:-8000}
NODES=${NODES:-3}
KEEP_DB=${KEEP_DB:-0}
DRY=0
while [ $# -gt 0 ]; do
    case $1 in
        --port) [ $# -ge 2 ] || usage; PORT=$2; shift 2 ;;
        --port=*) PORT=${1#--port=}; shift ;;
        --nodes) [ $# -ge 2 ] || usage; NODES=$2; shift 2 ;;
        --nodes=*) NODES=${1#--nodes=}; shift ;;
        --keep-db) KEEP_DB=1; shift ;;
        --dry-run) DRY=1; shift ;;
        -h | --help) usage ;;
        *) echo "cluster: unknown argument '$1'" >&2; usage ;;
    esac
done
for value in "$PORT" "$NODES"; do
    case $value in
        '' | *[!0-9]*) echo "cluster: --port and --nodes take numbers, not '$value'" >&2; exit 2 ;;
    esac
done
case $KEEP_DB in
    '' | 0) KEEP_DB=0 ;;
    1) ;;
    *) echo "cluster: KEEP_DB is 1 (keep the database) or 0, not '$KEEP_DB'" >&2; exit 2 ;;
esac
# Node names are single letters, a to z.
if [ "$NODES" -lt 1 ] || [ "$NODES" -gt 26 ]; then
    echo "cluster: --nodes must be 1 to 26, not $NODES" >&2
    exit 2
fi
if [ "$PORT" -lt 1 ] || [ $((PORT + NODES)) -gt 65535 ]; then
    echo "cluster: ports $((PORT + 1)) to $((PORT + NODES)) are not all valid ports" >&2
    exit 2
fi

OUT=build/cluster
SHEDKIT=.venv/bin/shedkit
PYTHON=.venv/bin/python
PG_PORT=${PG_PORT:-54329}
REDIS_PORT=${REDIS_PORT:-63790}
DB_NAME=shedkit_cluster
DB_URL="postgresql://postgres@127.0.0.1:$PG_PORT/$DB_NAME"
REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"

name_of() { echo abcdefghijklmnopqrstuvwxyz | cut -c "$1"; }

node_command() {
    echo "$SHEDKIT serve --host 127.0.0.1 --port $((PORT + $1)) --db $DB_URL" \
        "--cluster $REDIS_URL --node-id $(name_of "$1")"
}

if [ "$DRY" = 1 ]; then
    if [ "$KEEP_DB" = 1 ]; then
        echo "cluster: would keep the database $DB_NAME" >&2
    else
        echo "cluster: would drop and create the database $DB_NAME" >&2
    fi
    i=1
    while [ "$i" -le "$NODES" ]; do
        node_command "$i"
        i=$((i + 1))
    done
    exit 0
fi

[ -x "$SHEDKIT" ] || { echo "cluster: $SHEDKIT is missing; run 'make cluster'" >&2; exit 1; }

# PostgreSQL and Redis, installed and started as for the server tests.
PG_PORT=$PG_PORT REDIS_PORT=$REDIS_PORT sh scripts/server-test-deps.sh "$OUT"
if [ ! -f "$OUT/pg-url" ] || [ ! -f "$OUT/redis-url" ]; then
    echo "cluster: a cluster needs PostgreSQL and Redis on loopback, which are not running" \
        "(as root, scripts/server-test-deps.sh installs them)" >&2
    exit 1
fi
# `probe free PORT`: nothing listens on PORT. `probe health URL NAME`: the node at URL
# answers /api/health with 200 under the name NAME.
probe() {
    "$PYTHON" - "$@" <<'EOF'
import json
import socket
import sys
import urllib.request

if sys.argv[1] == "free":
    with socket.socket() as sock:
        sys.exit(1 if sock.connect_ex(("127.0.0.1", int(sys.argv[2]))) == 0 else 0)
try:
    with urllib.request.urlopen(sys.argv[2] + "api/health", timeout=2) as answer:
        ok = answer.status == 200 and json.load(answer).get("node") == sys.argv[3]
except Exception:
    ok = False
sys.exit(0 if ok else 1)
EOF
}
# A server already on a node's port would answer its health check in its stead.
i=1
while [ "$i" -le "$NODES" ]; do
    if ! probe free $((PORT + i)); then
        echo "cluster: port $((PORT + i)) is in use; choose other ports" \
            "(make cluster PORT=9000)" >&2
        exit 1
    fi
    i=$((i + 1))
done

BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
PSQL="$BIN/psql -h 127.0.0.1 -p $PG_PORT -U postgres -X -q -tA"
if [ "$KEEP_DB" = 0 ]; then
    # Without FORCE: a database another cluster still uses is not pulled from under it.
    if ! why=$($PSQL -c "DROP DATABASE IF EXISTS $DB_NAME" 2>&1); then
        why=$(echo "$why" | tr -s '\n ' '  ')
        echo "cluster: could not drop the database $DB_NAME ($why); stop what uses it," \
            "or keep it with --keep-db (make cluster KEEP_DB=1)" >&2
        exit 1
    fi
fi
if [ "$($PSQL -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" = 1 ]; then
    echo "cluster: the database $DB_NAME kept, with the tables of the last run"
else
    $PSQL -c "CREATE DATABASE $DB_NAME" >/dev/null
    echo "cluster: a fresh database $DB_NAME (make cluster KEEP_DB=1 keeps it next time)"
fi

# Started in the background by a script, the nodes may ignore Ctrl-C: the trap stops them.
PIDS=""
stop_nodes() {
    trap - EXIT INT TERM
    if [ -n "$PIDS" ]; then
        # shellcheck disable=SC2086
        kill $PIDS 2>/dev/null || true
        wait
        echo "cluster: nodes stopped; PostgreSQL and Redis keep running" \
            "(sh scripts/server-test-deps.sh $OUT stop stops them if this started them)"
    fi
}
trap stop_nodes EXIT
# Ctrl-C is how this is meant to end: once the nodes are stopped, that is a success (make
# would otherwise report "Error 130").
trap 'exit 0' INT TERM

i=1
while [ "$i" -le "$NODES" ]; do
    NAME=$(name_of "$i")
    # shellcheck disable=SC2046
    $(node_command "$i") >"$OUT/node-$NAME.log" 2>&1 &
    PIDS="$PIDS $!"
    i=$((i + 1))
done

# Ready when /api/health answers; a node that exits first has failed (its log says why).
i=1
for PID in $PIDS; do
    NAME=$(name_of "$i")
    URL="http://127.0.0.1:$((PORT + i))/"
    tries=0
    until probe health "$URL" "$NAME"; do
        if ! kill -0 "$PID" 2>/dev/null; then
            echo "cluster: node $NAME did not start; the end of $OUT/node-$NAME.log:" >&2
            tail -n 15 "$OUT/node-$NAME.log" >&2
            exit 1
        fi
        tries=$((tries + 1))
        if [ "$tries" -ge 120 ]; then
            echo "cluster: node $NAME did not answer ${URL}api/health in a minute;" \
                "see $OUT/node-$NAME.log" >&2
            exit 1
        fi
        sleep 0.5
    done
    echo "node $NAME: $URL (log $OUT/node-$NAME.log)"
    i=$((i + 1))
done
echo "ready: $NODES nodes, one database ($DB_URL) and one Redis ($REDIS_URL)"
echo "Any node serves every table: open a table on one, join it from another."
echo "Ctrl-C stops the nodes."
wait
