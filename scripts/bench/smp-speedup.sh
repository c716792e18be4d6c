#!/usr/bin/env bash
# Parallel speed-up of the search: `tabula bench` to a fixed depth on 1 and on 2 threads,
# several runs each, reporting the median time, nodes/s and their ratios.
#
#   scripts/bench/smp-speedup.sh [runs] [game]      (defaults: 5 runs, reversi)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
game=${2:-reversi}
cargo build --release --quiet
median() { sort -g | awk '{ values[NR] = $1 } END { print values[int((NR + 1) / 2)] }'; }
declare -A time nps
for threads in 1 2; do
    times=(); rates=()
    for _ in $(seq "$runs"); do
        line=$(target/release/tabula bench --game "$game" --threads "$threads" | tail -1)
        # total N nodes T s R nodes/s (K threads)
        times+=("$(echo "$line" | awk '{ print $4 }')")
        rates+=("$(echo "$line" | awk '{ print $6 }')")
    done
    time[$threads]=$(printf '%s\n' "${times[@]}" | median)
    nps[$threads]=$(printf '%s\n' "${rates[@]}" | median)
    echo "$threads thread(s): median time ${time[$threads]} s, median ${nps[$threads]} nodes/s over $runs runs"
done
awk -v t1="${time[1]}" -v t2="${time[2]}" -v n1="${nps[1]}" -v n2="${nps[2]}" \
    'BEGIN { printf "speed-up to the same depth: %.2fx; nodes/s ratio: %.2fx\n", t1 / t2, n2 / n1 }'
