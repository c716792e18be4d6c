#!/usr/bin/env bash
# Reproduces data/reversi-patterns.bin, the weights of the Reversi pattern evaluation
# (src/games/reversi/patterns.rs), from nothing but this repository:
#
#   1. build the release binary;
#   2. round 1: self-play with the hand-made evaluation (--weights none), so that nothing depends
#      on the weights being rebuilt;
#   3. train round-1 weights on it;
#   4. round 2: self-play with the round-1 weights (loaded from their file), for positions and
#      results from better play;
#   5. train the final weights on both rounds and write data/reversi-patterns.bin.
#
# Every step is deterministic given the parameters below (games are seeded by number and searched
# on one thread each; training runs in a fixed order), whatever THREADS is.
#
# Run time: measured on 2 busy shared cores (x86-64-v3): round 1 (14000 games) 33 min, round 2
# (6000 games) 22 min, the final training 1 min; the committed weights (1018715 positions) came
# from exactly these steps. The self-play files take about 0.3 GB under
# $WORK; they are not committed.
#
# Usage: scripts/train-reversi-eval.sh   (from anywhere; long jobs run under nice)
set -euo pipefail
cd "$(dirname "$0")/.."

# --- Parameters -------------------------------------------------------------------------------
THREADS=2                 # games played in parallel (does not change the output)
ROUND1_GAMES=14000        # self-play games, round 1 (hand-made evaluation)
ROUND1_SEED=1
ROUND2_GAMES=6000         # self-play games, round 2 (round-1 pattern weights)
ROUND2_SEED=2
RANDOM_MOVES=20           # each game opens with 0..RANDOM_MOVES random moves
DEPTH=6                   # search depth of engine moves
CANDIDATES=4              # engine moves pick among the best CANDIDATES moves...
MARGIN=3                  # ...within MARGIN discs of the best...
TEMPERATURE=1             # ...with weight exp(-loss / TEMPERATURE discs)
EXACT_EMPTIES=18          # positions with at most this many empties are solved exactly
ITERATIONS=300            # conjugate-gradient iterations per phase
L2=30                     # ridge penalty per weight (in positions)
OVERLAP=2                 # phases also train on positions this many empties beyond their range
VALIDATION_PERCENT=10     # games held out to report the validation error
WORK=${WORK:-target/reversi-training}
OUT=data/reversi-patterns.bin
# ----------------------------------------------------------------------------------------------

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
mkdir -p "$WORK"
nice -n 10 cargo build --release
TABULA="$CARGO_TARGET_DIR/release/tabula"

selfplay() { # weights seed games out
    nice -n 10 "$TABULA" --weights "$1" reversi-selfplay --seed "$2" --games "$3" \
        --threads "$THREADS" --random-moves "$RANDOM_MOVES" --depth "$DEPTH" \
        --candidates "$CANDIDATES" --margin "$MARGIN" --temperature "$TEMPERATURE" \
        --exact-empties "$EXACT_EMPTIES" --out "$4"
}

train() { # out data...
    local out=$1
    shift
    nice -n 10 "$TABULA" reversi-train --data "$@" --out "$out" --iterations "$ITERATIONS" \
        --l2 "$L2" --overlap "$OVERLAP" --validation-percent "$VALIDATION_PERCENT" \
        --threads "$THREADS"
}

time selfplay none "$ROUND1_SEED" "$ROUND1_GAMES" "$WORK/round1.txt" | tee "$WORK/round1.log"
time train "$WORK/round1.bin" "$WORK/round1.txt" | tee "$WORK/train1.log"
time selfplay "$WORK/round1.bin" "$ROUND2_SEED" "$ROUND2_GAMES" "$WORK/round2.txt" | tee "$WORK/round2.log"
time train "$OUT" "$WORK/round1.txt" "$WORK/round2.txt" | tee "$WORK/train2.log"
sha256sum "$OUT"
echo "Now rebuild (cargo build --release) to compile the new weights in."
