# Shared by the match-*.sh scripts (sourced, not run): builds Tabula and plays it, as engine 1 at
# LEVEL with MOVETIME ms per move on one thread, against the engine that the gtp_match.py options
# given to run_match describe. Writes summary.txt, games.jsonl, load.txt and logs/ under OUT,
# sampling the machine load every 30 s. Needs GAMES, LEVEL, MOVETIME and OUT.

run_match() {
    cargo build --release
    local tabula=${CARGO_TARGET_DIR:-target}/release/tabula
    mkdir -p "$OUT"
    echo "load before the match: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" | tee "$OUT/summary.txt"
    (while sleep 30; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; done) > "$OUT/load.txt" &
    SAMPLER=$!
    trap 'kill "$SAMPLER" 2>/dev/null || true' EXIT
    python3 scripts/gtp_match.py \
        --arbiter "$tabula" \
        --engine1 "$tabula" --name1 tabula \
        --setup1 "set_option threads 1" --setup1 "set_option level $LEVEL" \
        --setup1 "set_option movetime $MOVETIME" --movetime1 "$MOVETIME" \
        --games "$GAMES" --log-dir "$OUT/logs" --jsonl "$OUT/games.jsonl" "$@" | tee -a "$OUT/summary.txt"
    echo "load after the match: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/summary.txt"
    awk '{ sum += $2; n++; if ($2 > max) max = $2 } END { if (n) printf "1-minute load during the match: mean %.2f, max %.2f over %d samples\n", sum / n, max, n }' \
        "$OUT/load.txt" | tee -a "$OUT/summary.txt"
}
