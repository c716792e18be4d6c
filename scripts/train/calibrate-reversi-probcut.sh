#!/usr/bin/env bash
# Reproduces src/games/reversi/probcut_table.rs, the lines of the Reversi ProbCut model
# (src/games/reversi/probcut.rs), from nothing but this repository and the evaluation in use:
# seeded sample games stopped at FEWEST..MOST empties, each position searched to DEEPEST plies
# on one thread with ProbCut off, and a least-squares line per (deep, shallow, empties bucket).
# Deterministic given the parameters below and the evaluation, whatever THREADS is: rerun it after
# the pattern weights change, and `git diff` shows what moved.
#
# Run time: 2000 positions to depth 12 took about 15 min on 2 busy shared cores (load 4-8);
# the summary (slope, intercept and sigma in discs of the pairs the model uses, per bucket)
# goes to $SUMMARY.
#
# Usage: scripts/train/calibrate-reversi-probcut.sh   (from anywhere; runs under nice)
set -euo pipefail
cd "$(dirname "$0")/../.."

# --- Parameters -------------------------------------------------------------------------------
POSITIONS=2000
SEED=1
THREADS=2           # positions searched in parallel (does not change the output)
DEEPEST=12          # every depth pair up to this one is fitted
FEWEST=12           # sample positions have FEWEST..MOST empties
MOST=58
OUT=src/games/reversi/probcut_table.rs
SUMMARY=${SUMMARY:-target/reversi-probcut-summary.txt}
# ----------------------------------------------------------------------------------------------

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
nice -n 10 cargo build --release --bin tabula
mkdir -p "$(dirname "$SUMMARY")"
nice -n 10 "$CARGO_TARGET_DIR/release/tabula" tune reversi --positions "$POSITIONS" --seed "$SEED" \
    --threads "$THREADS" --deepest "$DEEPEST" --fewest-empties "$FEWEST" --most-empties "$MOST" \
    --summary "$SUMMARY" > "$OUT.new"
mv "$OUT.new" "$OUT"
echo "wrote $OUT and $SUMMARY"
