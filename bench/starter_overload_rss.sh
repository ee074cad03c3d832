#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Seed 000 on purpose: the reference engine at a small capacity, the starter at ten times that
# rate, for a while. Prints the starter's peak resident memory (VmHWM) and where the excess
# went (pending, dropped, deadline failures), so a regression to an unbounded queue shows as
# a number.
#
# usage: bench/starter_overload_rss.sh [seconds (default 60)] [build dir]
#   build dir defaults to $BUILD_DIR, else build-starter-rel, else build-starter.
#   ENGINE_WORKERS (4) and ENGINE_SERVICE_TIME (0.04 s) set the engine's capacity
#   (workers / service time = 100/s); the starter runs at RATE_FACTOR (10) times that.
#   STARTER_ARGS adds flags to the starter, e.g. "--deadline 60 --max-pending 10000".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

DURATION="${1:-60}"
BUILD="${2:-${BUILD_DIR:-}}"
if [[ -z "$BUILD" ]]; then
    BUILD="$ROOT/build-starter-rel"
    [[ -x "$BUILD/testbed/starter/chaoscope-starter" ]] || BUILD="$ROOT/build-starter"
fi
STARTER="$BUILD/testbed/starter/chaoscope-starter"
ENGINE="$BUILD/testbed/engine/chaoscope-engine"
for binary in "$STARTER" "$ENGINE"; do
    [[ -x "$binary" ]] || { echo "missing $binary (build chaoscope-starter and chaoscope-engine)" >&2; exit 2; }
done

WORKERS="${ENGINE_WORKERS:-4}"
SERVICE_TIME="${ENGINE_SERVICE_TIME:-0.04}"
FACTOR="${RATE_FACTOR:-10}"
CAPACITY=$(awk -v w="$WORKERS" -v s="$SERVICE_TIME" 'BEGIN { printf "%g", w / s }')
RATE=$(awk -v c="$CAPACITY" -v f="$FACTOR" 'BEGIN { printf "%g", c * f }')

WORK="$(mktemp -d)"
ENGINE_PID=""
STARTER_PID=""
cleanup() {
    [[ -n "$STARTER_PID" ]] && kill "$STARTER_PID" 2>/dev/null && wait "$STARTER_PID" 2>/dev/null || true
    [[ -n "$ENGINE_PID" ]] && kill "$ENGINE_PID" 2>/dev/null && wait "$ENGINE_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# Waits for the one "listening on http://127.0.0.1:<port>" line and prints the port.
port_of() {
    local file="$1" pid="$2" line=""
    for _ in $(seq 1 200); do
        line=$(grep -m1 '^listening on ' "$file" 2>/dev/null || true)
        [[ -n "$line" ]] && { echo "${line##*:}"; return 0; }
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    echo "no 'listening on' line from pid $pid" >&2
    return 1
}

"$ENGINE" --port 0 --workers "$WORKERS" --service-time "$SERVICE_TIME" >"$WORK/engine.out" 2>"$WORK/engine.err" &
ENGINE_PID=$!
ENGINE_PORT=$(port_of "$WORK/engine.out" "$ENGINE_PID") || { cat "$WORK/engine.err" >&2; exit 1; }

# shellcheck disable=SC2086 # STARTER_ARGS is a list of flags
"$STARTER" --port 0 --target "http://127.0.0.1:$ENGINE_PORT" --rate "$RATE" ${STARTER_ARGS:-} \
    >"$WORK/starter.out" 2>"$WORK/starter.err" &
STARTER_PID=$!
STARTER_PORT=$(port_of "$WORK/starter.out" "$STARTER_PID") || { cat "$WORK/starter.err" >&2; exit 1; }

echo "engine: $WORKERS workers x ${SERVICE_TIME}s = ${CAPACITY}/s; starter: ${RATE}/s for ${DURATION}s ${STARTER_ARGS:-}"

metric() { # metric <text> <series>: the value of one sample line
    awk -v s="$2" '$1 == s { print $2; found = 1 } END { if (!found) print "n/a" }' <<<"$1"
}

max_rss_kb=0
max_pending=0
end=$((SECONDS + DURATION))
while ((SECONDS < end)); do
    kill -0 "$STARTER_PID" 2>/dev/null || { echo "the starter died" >&2; cat "$WORK/starter.err" >&2; exit 1; }
    rss_kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$STARTER_PID/status")
    ((rss_kb > max_rss_kb)) && max_rss_kb=$rss_kb
    pending=$(metric "$(curl -s "http://127.0.0.1:$STARTER_PORT/metrics")" http_client_pool_pending)
    [[ "$pending" =~ ^[0-9]+$ ]] && ((pending > max_pending)) && max_pending=$pending
    sleep 1
done

text=$(curl -s "http://127.0.0.1:$STARTER_PORT/metrics")
hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$STARTER_PID/status")
liveness=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$STARTER_PORT/health/liveness")

printf 'peak RSS (VmHWM):        %d KiB (%.1f MiB); highest VmRSS sample %d KiB\n' \
    "$hwm_kb" "$(awk -v k="$hwm_kb" 'BEGIN { print k / 1024 }')" "$max_rss_kb"
printf 'sent:                    %s\n' "$(metric "$text" starter_requests_sent_total)"
printf 'received success:        %s\n' "$(metric "$text" 'starter_requests_received_total{outcome="success"}')"
printf 'received failure:        %s (599: %s, 503: %s)\n' \
    "$(metric "$text" 'starter_requests_received_total{outcome="failure"}')" \
    "$(metric "$text" 'http_client_request_seconds_count{method="POST",status="599"}')" \
    "$(metric "$text" 'http_client_request_seconds_count{method="POST",status="503"}')"
printf 'pending at end / max:    %s / %s\n' "$(metric "$text" http_client_pool_pending)" "$max_pending"
printf 'leased at end:           %s of %s\n' "$(metric "$text" http_client_pool_leased)" \
    "$(metric "$text" http_client_pool_max)"
printf 'dropped (max-pending):   %s\n' "$(metric "$text" starter_requests_dropped_total)"
printf 'skipped (in-flight cap): %s\n' "$(metric "$text" starter_requests_skipped_total)"
printf 'liveness:                %s\n' "$liveness"
