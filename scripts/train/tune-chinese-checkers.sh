#!/usr/bin/env bash
# Tunes the Chinese Checkers evaluation weights by self-play with `tabula tune chinese-checkers evaluation`:
# a coordinate search from the hand-set first weights (the example's --start), each candidate
# playing the current weights at a fixed depth from seeded greedy openings, seats rotating. Fixed
# depths and no race solver mean no clock is read: the same arguments give the same games and the
# same weights on any machine, at any load.
#
#     scripts/train/tune-chinese-checkers.sh                 # the run whose output is committed
#     PLAYERS=3 DEPTH=3 GAMES=40 scripts/train/tune-chinese-checkers.sh
#
# The last line of the output, "tuned: key=value,...", is the result. It replaces
# Weights::DEFAULT (src/games/chinese_checkers/evaluation.rs) only if it beats the weights there
# in a match with error bars, played before the change (contender 1 takes --weights, the other
# seats Weights::DEFAULT), e.g.
#     GAMES=100 scripts/match/chinese-checkers.sh players=2 8,8 --nodes 40000 --opening 8 \
#         --first-weights "<tuned weights>"
# The committed weights are this script's output with the defaults below.
# Environment: PLAYERS (2), DEPTH (3), GAMES per candidate (48), OPENING plies per player (4),
# ROUNDS (2), ACCEPT score (0.55), JOBS (1; results do not depend on it), OUT (results directory).
set -euo pipefail
cd "$(dirname "$0")/../.."
PLAYERS=${PLAYERS:-2}
DEPTH=${DEPTH:-3}
GAMES=${GAMES:-48}
OPENING=${OPENING:-4}
ROUNDS=${ROUNDS:-2}
ACCEPT=${ACCEPT:-0.55}
JOBS=${JOBS:-1}
OUT=${OUT:-target/tuning/chinese-checkers-$(date +%Y%m%d-%H%M%S)}

cargo build --release --bin tabula
mkdir -p "$OUT"
echo "load before tuning: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" | tee "$OUT/tune.txt"
started=$(date +%s)
"${CARGO_TARGET_DIR:-target}/release/tabula" tune chinese-checkers evaluation \
    --players "$PLAYERS" --depth "$DEPTH" --games "$GAMES" --opening "$OPENING" \
    --rounds "$ROUNDS" --accept "$ACCEPT" --jobs "$JOBS" | tee -a "$OUT/tune.txt"
echo "run time: $(($(date +%s) - started)) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/tune.txt"
