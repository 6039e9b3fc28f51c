#!/bin/sh
# What the server tests need on a Debian machine: Debian's chromium (Playwright drives it; no
# browser download), CJK fonts for its screenshots, a PostgreSQL server on loopback with a
# test database, and a Redis on loopback for the cluster tests. As root, missing packages
# are installed with apt-get (skipped when present, so repeated runs are quick); as another
# user, what is missing is reported and those tests skip. Writes the database URL to
# $1/pg-url (default build/) once PostgreSQL answers. A server this script starts is marked
# by $1/pg-started, which records its bin directory, port and data directory (one a line);
# `server-test-deps.sh DIR stop` stops that server (and only that one) by what the marker
# says, whatever PG_PORT says then. Likewise Redis: its URL in $1/redis-url, one this
# script starts marked by $1/redis-started (its port). A marker is removed only once its
# server is down; a stop that fails keeps it, says so and exits 1, so it can be tried again.
set -eu
OUT=${1:-build}
PORT=${PG_PORT:-54329}
DIR=/var/tmp/shedkit-pg-$PORT
REDIS_PORT=${REDIS_PORT:-63790}
REDIS_DIR=/var/tmp/shedkit-redis-$REDIS_PORT
mkdir -p "$OUT"
rm -f "$OUT/pg-url" "$OUT/redis-url"

is_root() { [ "$(id -u)" = 0 ]; }

if [ "${2:-}" = stop ]; then
    failed=0
    if [ -f "$OUT/redis-started" ]; then
        # The port it was started on, whatever REDIS_PORT says now.
        STARTED=$(cat "$OUT/redis-started")
        redis-cli -h 127.0.0.1 -p "$STARTED" shutdown nosave >/dev/null 2>&1 || true
        if [ "$(redis-cli -h 127.0.0.1 -p "$STARTED" ping 2>/dev/null)" = PONG ]; then
            echo "Redis for the server tests: still running on port $STARTED;" \
                "$OUT/redis-started kept" >&2
            failed=1
        else
            rm -f "$OUT/redis-started"
            echo "Redis for the server tests: stopped"
        fi
    fi
    if [ -f "$OUT/pg-started" ]; then
        # Bin directory, port and data directory as started; a marker from before the port
        # and directory were recorded holds the bin directory only.
        BIN=$(sed -n 1p "$OUT/pg-started")
        STARTED=$(sed -n 2p "$OUT/pg-started")
        DATA=$(sed -n 3p "$OUT/pg-started")
        STARTED=${STARTED:-$PORT}
        DATA=${DATA:-/var/tmp/shedkit-pg-$STARTED}
        if is_root; then RUN="runuser -u postgres --"; else RUN=""; fi
        if why=$($RUN "$BIN/pg_ctl" -D "$DATA" -m fast -w stop 2>&1 >/dev/null); then
            rm -f "$OUT/pg-started"
            echo "PostgreSQL for the server tests: stopped (port $STARTED)"
        else
            # pg_ctl status exits 3 when no server runs there: already stopped by someone.
            code=0
            $RUN "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1 || code=$?
            if [ "$code" = 3 ]; then
                rm -f "$OUT/pg-started"
                echo "PostgreSQL for the server tests: was not running (port $STARTED)"
            else
                echo "PostgreSQL for the server tests: could not stop the server on port" \
                    "$STARTED (data $DATA); $OUT/pg-started kept. $why" >&2
                failed=1
            fi
        fi
    fi
    exit "$failed"
fi

need=""
command -v chromium >/dev/null 2>&1 || need="$need chromium"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need="$need postgresql"
command -v redis-server >/dev/null 2>&1 || need="$need redis-server"
# The browser tests' screenshots in Chinese and Japanese need CJK glyphs.
[ -d /usr/share/fonts/opentype/noto ] && ls /usr/share/fonts/opentype/noto/NotoSansCJK* >/dev/null 2>&1 \
    || need="$need fonts-noto-cjk"
# And emoji, for the emotes in the table's screenshots.
ls /usr/share/fonts/truetype/noto/NotoColorEmoji* >/dev/null 2>&1 || need="$need fonts-noto-color-emoji"
if [ -n "$need" ]; then
    if is_root && command -v apt-get >/dev/null 2>&1; then
        echo "installing$need (Debian packages)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq </dev/null
        # shellcheck disable=SC2086
        apt-get install -y -qq --no-install-recommends $need </dev/null >/dev/null
    else
        echo "server tests:$need not installed (needs root and apt-get); those tests will skip" >&2
    fi
fi

# Redis first: the PostgreSQL part below ends the script where PostgreSQL is missing.
# No persistence: the cluster keeps nothing in Redis that outlives its nodes.
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }
if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
    if ! redis_up; then
        mkdir -p "$REDIS_DIR"
        if redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
            --daemonize yes --dir "$REDIS_DIR" --pidfile "$REDIS_DIR/redis.pid" \
            --logfile "$REDIS_DIR/redis.log"; then
            echo "$REDIS_PORT" >"$OUT/redis-started"
            # Daemonized, it answers a moment after this returns.
            tries=0
            while ! redis_up && [ "$tries" -lt 50 ]; do
                sleep 0.1
                tries=$((tries + 1))
            done
        fi
    fi
    if redis_up; then
        echo "redis://127.0.0.1:$REDIS_PORT/0" >"$OUT/redis-url"
        echo "Redis for the server tests: $(cat "$OUT/redis-url")"
    else
        echo "server tests: Redis did not start on port $REDIS_PORT (see $REDIS_DIR/redis.log);" \
            "the cluster tests will skip" >&2
    fi
fi

BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$BIN" ] || exit 0
if is_root; then
    RUN="runuser -u postgres --"
else
    RUN=""
fi
if ! "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
    if [ ! -f "$DIR/PG_VERSION" ]; then
        mkdir -p "$DIR"
        if is_root; then chown postgres:postgres "$DIR"; fi
        $RUN "$BIN/initdb" -D "$DIR" -A trust -U postgres >/dev/null
    fi
    $RUN "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w \
        -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR" start >/dev/null
    printf '%s\n%s\n%s\n' "$BIN" "$PORT" "$DIR" >"$OUT/pg-started"
fi
PSQL="$BIN/psql -h 127.0.0.1 -p $PORT -U postgres -X -q -tA"
if [ "$($PSQL -c "SELECT 1 FROM pg_database WHERE datname = 'shedkit_test'")" != 1 ]; then
    $PSQL -c "CREATE DATABASE shedkit_test" >/dev/null
fi
echo "postgresql://postgres@127.0.0.1:$PORT/shedkit_test" >"$OUT/pg-url"
echo "PostgreSQL for the server tests: $(cat "$OUT/pg-url")"
