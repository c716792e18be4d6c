# Shared by the match-*.sh scripts (sourced, not run): builds Tabula and plays it with `tabula match`,
# at LEVEL with MOVETIME ms per move on one thread, against the engine that the `--engine` words
# given to run_match describe (and any further `tabula match` options). Writes summary.txt,
# games.jsonl (game records), elo.svg and load.txt under OUT, sampling the machine load every 30 s.
# Needs GAMES, LEVEL, MOVETIME, OUT, GAME and OPENINGS; GAME_OPTIONS (an array of -o words) and
# CONCURRENCY (default 1) are optional.

run_match() {
    cargo build --release
    local tabula=${CARGO_TARGET_DIR:-target}/release/tabula
    mkdir -p "$OUT"
    echo "load before the match: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" | tee "$OUT/summary.txt"
    (while sleep 30; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; done) > "$OUT/load.txt" &
    SAMPLER=$!
    trap 'kill "$SAMPLER" 2>/dev/null || true' EXIT
    "$tabula" match --game "$GAME" ${GAME_OPTIONS[@]+"${GAME_OPTIONS[@]}"} \
        --engine "cmd=$(printf '%q' "$tabula")" name=tabula option.threads=1 "option.level=$LEVEL" \
        "movetime=$MOVETIME" \
        "$@" \
        --games "$GAMES" --concurrency "${CONCURRENCY:-1}" --openings "$OPENINGS" \
        --records "$OUT/games.jsonl" --plot "$OUT/elo.svg" | tee -a "$OUT/summary.txt"
    echo "load after the match: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/summary.txt"
    awk '{ sum += $2; n++; if ($2 > max) max = $2 } END { if (n) printf "1-minute load during the match: mean %.2f, max %.2f over %d samples\n", sum / n, max, n }' \
        "$OUT/load.txt" | tee -a "$OUT/summary.txt"
}
