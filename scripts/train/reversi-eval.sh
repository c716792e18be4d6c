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
#   5. train round-2 weights on both rounds;
#   6. round 3: self-play with the round-2 weights, and a held-out run of another seed;
#   7. refine: train on round 3 alone, each weight pulled towards its round-2 value (--prior)
#      rather than 0, with the label half the game's result and half the engine's search score
#      (--search-weight), and write data/reversi-patterns.bin;
#   8. print the error by empties of the round-2 and final weights on the held-out run.
#
# Every step is deterministic given the parameters below (games are seeded by number and searched
# on one thread each; training runs in a fixed order), whatever THREADS is.
#
# Run time: measured on 2 busy shared cores (x86-64-v3): round 1 (14000 games) 33 min, round 2
# (6000 games) 22 min, its training 1 min (1018715 positions: the weights committed until
# 2026-11-23); at load 8-9, round 3 (8000 games, 406426 positions) 48 min, the held-out run (1000
# games) about 6 min, the refinement 1 min. The self-play files take about 0.4 GB under $WORK;
# they are not committed.
#
# Usage: scripts/train/reversi-eval.sh   (from anywhere; long jobs run under nice)
set -euo pipefail
cd "$(dirname "$0")/../.."

# --- Parameters -------------------------------------------------------------------------------
THREADS=2                 # games played in parallel (does not change the output)
ROUND1_GAMES=14000        # self-play games, round 1 (hand-made evaluation)
ROUND1_SEED=1
ROUND2_GAMES=6000         # self-play games, round 2 (round-1 pattern weights)
ROUND2_SEED=2
ROUND3_GAMES=8000         # self-play games, round 3 (round-2 pattern weights)
ROUND3_SEED=3
HELD_OUT_GAMES=1000       # games of the held-out run (round-2 weights), only for the report
HELD_OUT_SEED=4
RANDOM_MOVES=20           # each game opens with 0..RANDOM_MOVES random moves
DEPTH=6                   # search depth of engine moves
CANDIDATES=4              # engine moves pick among the best CANDIDATES moves...
MARGIN=3                  # ...within MARGIN discs of the best...
TEMPERATURE=1             # ...with weight exp(-loss / TEMPERATURE discs)
EXACT_EMPTIES=18          # positions with at most this many empties are solved exactly
ITERATIONS=300            # conjugate-gradient iterations per phase
L2=30                     # ridge penalty per weight (in positions)
OVERLAP=2                 # phases also train on positions this many empties beyond their range
VALIDATION_PERCENT=10     # games held out to report the validation error (rounds 1-2)
REFINE_L2=100             # round 3: ridge penalty towards the round-2 weights
SEARCH_WEIGHT=0.5         # round 3: share of the label from the engine's search score
WORK=${WORK:-target/reversi-training}
OUT=data/reversi-patterns.bin
# ----------------------------------------------------------------------------------------------

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
mkdir -p "$WORK"
nice -n 10 cargo build --release
TABULA="$CARGO_TARGET_DIR/release/tabula"

selfplay() { # weights seed games out
    nice -n 10 "$TABULA" --weights "$1" selfplay reversi --seed "$2" --games "$3" \
        --threads "$THREADS" --random-moves "$RANDOM_MOVES" --depth "$DEPTH" \
        --candidates "$CANDIDATES" --margin "$MARGIN" --temperature "$TEMPERATURE" \
        --exact-empties "$EXACT_EMPTIES" --out "$4"
}

train() { # out data... [-- extra options]
    local out=$1
    shift
    nice -n 10 "$TABULA" train reversi --out "$out" --iterations "$ITERATIONS" \
        --overlap "$OVERLAP" --threads "$THREADS" --data "$@"
}

time selfplay none "$ROUND1_SEED" "$ROUND1_GAMES" "$WORK/round1.txt" | tee "$WORK/round1.log"
time train "$WORK/round1.bin" "$WORK/round1.txt" --l2 "$L2" \
    --validation-percent "$VALIDATION_PERCENT" | tee "$WORK/train1.log"
time selfplay "$WORK/round1.bin" "$ROUND2_SEED" "$ROUND2_GAMES" "$WORK/round2.txt" | tee "$WORK/round2.log"
time train "$WORK/round2.bin" "$WORK/round1.txt" "$WORK/round2.txt" --l2 "$L2" \
    --validation-percent "$VALIDATION_PERCENT" | tee "$WORK/train2.log"
time selfplay "$WORK/round2.bin" "$ROUND3_SEED" "$ROUND3_GAMES" "$WORK/round3.txt" | tee "$WORK/round3.log"
time selfplay "$WORK/round2.bin" "$HELD_OUT_SEED" "$HELD_OUT_GAMES" "$WORK/held-out.txt" | tee "$WORK/held-out.log"
time train "$OUT" "$WORK/round3.txt" --l2 "$REFINE_L2" --validation-percent 0 \
    --prior "$WORK/round2.bin" --search-weight "$SEARCH_WEIGHT" | tee "$WORK/train3.log"
for weights in "$WORK/round2.bin" "$OUT"; do
    echo "error by empties of $weights on the held-out run:"
    "$TABULA" --weights "$weights" train reversi --measure --data "$WORK/held-out.txt"
done
sha256sum "$OUT"
echo "Now rebuild (cargo build --release) to compile the new weights in."
