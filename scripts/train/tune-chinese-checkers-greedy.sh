#!/usr/bin/env bash
# Tunes level 8's evaluation weights for six players against five greedy seats (the issue's
# target) with `tabula tune chinese-checkers greedy`: a coordinate search over the weights, each
# candidate playing the same training games (seed 101; the six-player measurements use seeds 1-40)
# at a fixed depth without the race solver. No clock is read: the same arguments give the same
# weights on any machine, at any load, with any JOBS.
#
#     scripts/train/tune-chinese-checkers-greedy.sh   # the README's run (stopped in round 2;
#                                               # ROUNDS=1 repeats its round 1)
#     OBJECTIVE=place GAMES=400 scripts/train/tune-chinese-checkers-greedy.sh
#
# The last line, "tuned: key=value,...", is what `tabula selfplay chinese-checkers --first-weights` takes. Check it on
# the held-out seeds before it replaces Weights::DEFAULT, e.g. for S in 1..20:
#     target/release/tabula selfplay chinese-checkers --options players=6 \
#         --lineup 8,greedy,greedy,greedy,greedy,greedy --games 50 --depth 3 --seed S --first-weights "<tuned>"
# Environment: PLAYERS (6), DEPTH (3), GAMES per candidate (600), SEED (101), OBJECTIVE (first or
# place), MARGIN (0.01), ROUNDS (3), JOBS (1), OUT (results directory).
set -euo pipefail
cd "$(dirname "$0")/../.."
PLAYERS=${PLAYERS:-6}
DEPTH=${DEPTH:-3}
GAMES=${GAMES:-600}
SEED=${SEED:-101}
OBJECTIVE=${OBJECTIVE:-first}
MARGIN=${MARGIN:-0.01}
ROUNDS=${ROUNDS:-3}
JOBS=${JOBS:-1}
OUT=${OUT:-target/tuning/chinese-checkers-greedy-$(date +%Y%m%d-%H%M%S)}

cargo build --release --bin tabula
mkdir -p "$OUT"
echo "load before tuning: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" | tee "$OUT/tune.txt"
started=$(date +%s)
"${CARGO_TARGET_DIR:-target}/release/tabula" tune chinese-checkers greedy \
    --players "$PLAYERS" --depth "$DEPTH" --games "$GAMES" --seed "$SEED" \
    --objective "$OBJECTIVE" --margin "$MARGIN" --rounds "$ROUNDS" --jobs "$JOBS" | tee -a "$OUT/tune.txt"
echo "run time: $(($(date +%s) - started)) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/tune.txt"
