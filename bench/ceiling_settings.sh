#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The built-in ceiling search against several testbed settings whose capacity is known from
# their flags: the engine completes workers / service time per second, the starter's pool
# carries pool size / request duration. Prints, per setting, both configured ceilings, the
# lower one, the ceiling the search measured and how far it is from the lower one, so that a
# search that lands wide of the capacity shows as a number. About 3 minutes per setting.
#
# usage: bench/ceiling_settings.sh [build dir (default build/asan)] [out dir]
#   ONLY=name runs one setting (4x20ms, 8x20ms, 2x25ms, pool4).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build/asan}"
OUT="${2:-$(mktemp -d "${TMPDIR:-/tmp}/chaoscope-ceilings.XXXXXX")}"
mkdir -p "$OUT"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"

# name | engine flags | starter flags | engine capacity /s | pool ceiling /s (at the service time)
SETTINGS=(
    "4x20ms|--workers 4 --service-time 0.02|--pool-size 20|200|1000"
    "8x20ms|--workers 8 --service-time 0.02|--pool-size 20|400|1000"
    "2x25ms|--workers 2 --service-time 0.025|--pool-size 20|80|800"
    "pool4|--workers 8 --service-time 0.02|--pool-size 4|400|200"
)

printf '%-8s %10s %10s %8s %10s %8s  %s\n' setting engine pool lower measured error verdict
for setting in "${SETTINGS[@]}"; do
    IFS='|' read -r name engine starter capacity pool <<<"$setting"
    [[ -n ${ONLY:-} && $name != "$ONLY" ]] && continue
    dir="$OUT/$name"
    mkdir -p "$dir"
    set +e
    CHAOSCOPE_DEMO_ENGINE_ARGS="$engine" CHAOSCOPE_DEMO_STARTER_ARGS="$starter" \
        "$ROOT/testbed/demo-stack" --build "$BUILD" --out "$dir" --scenario ceiling --no-record \
        >"$dir/demo.log" 2>&1
    rc=$?
    set -e
    lower=$((capacity < pool ? capacity : pool))
    measured="$(grep -oE 'ceiling [0-9.]+ /s, (not )?confirmed' "$dir/chaoscope.log" | tail -1 | grep -oE '[0-9.]+' | head -1 || true)"
    if [[ -n $measured ]]; then
        error="$(awk -v m="$measured" -v l="$lower" 'BEGIN { printf "%+.1f%%", 100 * (m - l) / l }')"
    else
        measured="-" error="-"
    fi
    printf '%-8s %8s/s %8s/s %6s/s %8s/s %8s  exit %s\n' "$name" "$capacity" "$pool" "$lower" "$measured" "$error" "$rc"
done
echo "logs and capacity curves: $OUT"
