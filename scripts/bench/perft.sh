#!/usr/bin/env bash
# Reversi perft benchmark: builds the release binary, runs `tabula perft --game reversi --depth D`
# RUNS times for each depth in DEPTHS, and prints the median time of the deepest ply and leaves/s.
#
# If EDAX names an Edax binary (built elsewhere: this script never builds it), Edax's own perft
# (`perft D` on its command loop: no hash table, moves counted at the last ply) runs in the same
# session, runs interleaved with ours, and the ratios are printed. Edax reads data/eval.dat relative
# to its working directory, which is the binary's directory unless EDAX_DIR says otherwise; perft
# never evaluates, so any well-formed weight file will do (EDAX_EVAL passes `-eval-file` instead).
#
# Two timings are compared, since the machine may be shared:
# * "ply": each program's own time for the deepest ply. Ours is wall-clock time; Edax's is the
#   process's CPU time (getrusage), so under load this comparison favours Edax.
# * "cpu": the user+system CPU time of the whole process (perft 1..D, as both programs count every
#   depth up to D), less that of a depth-1 run (start-up), for both programs alike.
#
# TABULA names an already built tabula binary to time instead of building this tree (to compare
# with an older commit, say).
#
# Usage: scripts/bench/perft.sh            RUNS=7 DEPTHS="11 12" EDAX=/tmp/edax/bin/lEdax scripts/bench/perft.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

RUNS=${RUNS:-5}
DEPTHS=${DEPTHS:-"11 12"}
if [ -n "${TABULA:-}" ]; then
    BIN=$TABULA
    echo "tabula: $BIN"
else
    BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/tabula"
    cargo build --release --quiet
    echo "tabula: $BIN ($(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
fi

median() {
    sort -g | awk '{ value[NR] = $1 } END { if (NR % 2) print value[(NR + 1) / 2]; else print (value[NR / 2] + value[NR / 2 + 1]) / 2 }'
}

# Runs a command with its output in $OUTPUT and its user+system CPU seconds in $CPU.
timed() {
    local times
    times=$(mktemp)
    OUTPUT=$( { TIMEFORMAT='%U %S'; time "$@" 2>/dev/null; } 2>"$times" )
    CPU=$(awk 'END { print $1 + $2 }' "$times")
    rm -f "$times"
}

ours() {
    timed "$BIN" perft --game reversi --depth "$1"
}

edax() {
    local arguments=(-q -n 1)
    if [ -n "${EDAX_EVAL:-}" ]; then
        arguments+=(-eval-file "$EDAX_EVAL")
    fi
    (cd "${EDAX_DIR:-$(dirname "$EDAX")}" && timed "$EDAX" "${arguments[@]}" <<<"perft $1" && printf '%s\n%s\n' "$CPU" "$OUTPUT")
}

# Edax prints the time as [h:]m:ss.mmm.
edax_seconds() {
    awk -F: '{ seconds = 0; for (i = 1; i <= NF; i++) seconds = seconds * 60 + $i; print seconds }'
}

if [ -n "${EDAX:-}" ]; then
    echo "edax: $EDAX"
    edax_start=$(edax 1 | head -1)
fi
ours 1
ours_start=$CPU

for depth in $DEPTHS; do
    ply_times=() cpu_times=() edax_ply_times=() edax_cpu_times=()
    leaves=0 edax_leaves=0 all_leaves=0 edax_all_leaves=0
    for run in $(seq "$RUNS"); do
        ours "$depth"
        line=$(grep -E "^perft +$depth " <<<"$OUTPUT")
        leaves=$(awk '{ print $3 }' <<<"$line")
        all_leaves=$(awk '/^total/ { print $2 }' <<<"$OUTPUT")
        ply_times+=("$(awk '{ print $4 }' <<<"$line")")
        cpu_times+=("$(awk -v cpu="$CPU" -v start="$ours_start" 'BEGIN { print cpu - start }')")
        if [ -n "${EDAX:-}" ]; then
            result=$(edax "$depth")
            cpu=$(head -1 <<<"$result")
            line=$(grep -E "^ +$depth," <<<"$result")
            # Moves plus passes: the leaves at this depth (finished games are not counted).
            edax_leaves=$(awk -F, '{ print $2 + $3 }' <<<"$line")
            edax_all_leaves=$(awk '/^Total/ { print $2 - 1 }' <<<"$result")
            edax_ply_times+=("$(awk -F, '{ gsub(/ /, "", $8); print $8 }' <<<"$line" | edax_seconds)")
            edax_cpu_times+=("$(awk -v cpu="$cpu" -v start="$edax_start" 'BEGIN { print cpu - start }')")
        fi
    done
    ply=$(printf '%s\n' "${ply_times[@]}" | median)
    cpu=$(printf '%s\n' "${cpu_times[@]}" | median)
    echo
    echo "perft $depth: $leaves leaves, median of $RUNS runs"
    printf '  tabula ply %.3f s  %6.0f M leaves/s   (runs: %s)\n' "$ply" \
        "$(awk -v n="$leaves" -v t="$ply" 'BEGIN { print n / t / 1e6 }')" "${ply_times[*]}"
    # Process CPU times are counted in milliseconds and include start-up: meaningless when short.
    if awk -v t="$cpu" 'BEGIN { exit !(t < 0.1) }'; then
        echo "  tabula cpu: too short to time (depth 11 and up are)"
    else
        printf '  tabula cpu %.3f s  %6.0f M leaves/s for depths 1..%d (runs: %s)\n' "$cpu" \
            "$(awk -v n="$all_leaves" -v t="$cpu" 'BEGIN { print n / t / 1e6 }')" "$depth" "${cpu_times[*]}"
    fi
    if [ -n "${EDAX:-}" ]; then
        edax_ply=$(printf '%s\n' "${edax_ply_times[@]}" | median)
        edax_cpu=$(printf '%s\n' "${edax_cpu_times[@]}" | median)
        printf '  edax   ply %.3f s  %6.0f M leaves/s   (%s leaves; runs: %s)\n' "$edax_ply" \
            "$(awk -v n="$edax_leaves" -v t="$edax_ply" 'BEGIN { print n / t / 1e6 }')" "$edax_leaves" "${edax_ply_times[*]}"
        printf '  edax   cpu %.3f s  %6.0f M leaves/s for depths 1..%d (runs: %s)\n' "$edax_cpu" \
            "$(awk -v n="$edax_all_leaves" -v t="$edax_cpu" 'BEGIN { print n / t / 1e6 }')" "$depth" "${edax_cpu_times[*]}"
        printf '  edax / tabula time: ply %.2f, cpu %.2f\n' \
            "$(awk -v a="$edax_ply" -v b="$ply" 'BEGIN { print a / b }')" \
            "$(awk -v a="$edax_cpu" -v b="$cpu" 'BEGIN { print a / b }')"
    fi
done
