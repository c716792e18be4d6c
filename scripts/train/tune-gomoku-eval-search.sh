#!/usr/bin/env bash
# The second stage of the Gomoku evaluation's tuning: the pattern weights fitted to labels from
# deeper searches as well as to game results. It starts from START, by default the committed
# weights (data/gomoku-weights.txt, the first stage's output: scripts/train/tune-gomoku-eval.sh,
# a fit to results alone), and writes OUT.
#
#   1. build the release binary;
#   2. self-play at a fixed depth (DEPTH, 4 by default) on one thread with START's weights
#      (`tabula selfplay gomoku`), GAMES games per rule, freestyle and renju (one process each),
#      from SEED's random two- and three-stone openings (not the first stage's seed);
#   3. label every EVERY-th position of each game (after the first 4 plies) with a search to
#      LABEL_DEPTH with START's weights, the score turned into an expected result and blended with
#      the game's result: label = (1 - SEARCH_WEIGHT) x result + SEARCH_WEIGHT x expected; leave
#      out the positions whose search is decided (a proof or a threat: `--drop-decided`); fit the
#      weights to the labels, every HOLD_OUT-th game held out, and write the line-search
#      candidates START + a (fit - START) for a in STEPS (`tabula train gomoku --label-depth ...`;
#      the error on the held-out games of START, of each step, of the fit and of the hand-set
#      weights is in WORK/train.log); the weights HOLD names keep START's values, and each
#      weight is rounded down or up by the training loss (`--round-by-loss`);
#   4. write the candidate of step STEP to OUT;
#   5. with CHECK=1 and EXPECTED, compare OUT with EXPECTED (the exit status says whether they are
#      equal);
#   6. with SPRT_GAMES > 0, play OUT against START at level 8, SPRT_MOVETIME ms a move, one
#      thread, in an SPRT (elo0 0, elo1 20, alpha = beta = 0.05; `tabula selfplay gomoku --sprt`)
#      on the pairs of the 383 openings of gomoku-sprt.sh (data/openings/gomoku-15-random.txt and
#      -balanced.txt), freestyle and renju pairs in turn, at most SPRT_GAMES games; the log is
#      WORK/sprt.log.
#
# Steps 2 to 5 are deterministic (fixed depths, seeded openings, one thread per game and per
# search, a fixed fit order): the same code and parameters give the same OUT. Step 6 is timed, so
# it is a test, not a step of the output: STEP names the candidate whose timed SPRT was run and
# recorded (docs/results/gomoku.md), and a candidate is committed only when that SPRT accepts it.
# None has been yet: the defaults give the one that came nearest (H0 after 684 games, Elo -3.0),
# and a second run of steps 1-5 wrote it again byte for byte.
#
# Usage: scripts/train/tune-gomoku-eval-search.sh [OUT]   (OUT defaults to WORK/out.txt)
# Environment: START, EXPECTED, GAMES (per rule), DEPTH, SEED, LABEL_DEPTH, SEARCH_WEIGHT, EVERY,
#              HOLD_OUT, HOLD, EPOCHS, STEPS, STEP, THREADS (of the labelling; the scores do not
#              depend on it), CHECK, SPRT_GAMES, SPRT_MOVETIME, WORK.
set -euo pipefail

# Everything runs from a function, which bash reads whole, and the line that calls it exits, so
# bash reads nothing after it: editing the file mid-run is harmless.
main() {
    cd "$(dirname "$0")/../.."
    source scripts/train/gomoku-selfplay.sh

    START=${START:-data/gomoku-weights.txt}
    EXPECTED=${EXPECTED:-}
    GAMES=${GAMES:-200}
    DEPTH=${DEPTH:-4}
    SEED=${SEED:-31}
    LABEL_DEPTH=${LABEL_DEPTH:-7}
    SEARCH_WEIGHT=${SEARCH_WEIGHT:-1}
    EVERY=${EVERY:-2}
    HOLD=${HOLD:-}
    HOLD_OUT=${HOLD_OUT:-5}
    EPOCHS=${EPOCHS:-400}
    STEPS=${STEPS:-0.25,0.5,1}
    STEP=${STEP:-0.5}
    THREADS=${THREADS:-2}
    CHECK=${CHECK:-0}
    SPRT_GAMES=${SPRT_GAMES:-0}
    SPRT_MOVETIME=${SPRT_MOVETIME:-100}
    WORK=${WORK:-target/gomoku-tune-search}
    OUT=${1:-$WORK/out.txt}
    HAND=data/gomoku-weights-hand.txt

    mkdir -p "$WORK"
    cargo build --release --bin tabula
    TABULA=${CARGO_TARGET_DIR:-target}/release/tabula

    gomoku_selfplay "$TABULA" "$WORK" "$GAMES" "$SEED" "$DEPTH" "$START"

    begin=$(date +%s)
    rm -f "$WORK"/fit*.txt
    holds=()
    for name in $HOLD; do
        holds+=(--hold "$name")
    done
    "$TABULA" train gomoku --games "$WORK/games-freestyle.txt" --games "$WORK/games-renju.txt" \
        --start "$START" --epochs "$EPOCHS" --steps "$STEPS" --every "$EVERY" \
        --label-depth "$LABEL_DEPTH" --search-weight "$SEARCH_WEIGHT" --threads "$THREADS" \
        --scores "$WORK/scores.txt" --hold-out "$HOLD_OUT" --compare "$HAND" --round-by-loss --drop-decided \
        ${holds[@]+"${holds[@]}"} \
        --out "$WORK/fit.txt" 2>&1 | tee "$WORK/train.log"
    echo "labels and fit: $(( $(date +%s) - begin )) s"

    cp "$WORK/fit-$STEP.txt" "$OUT"
    echo "wrote $OUT (step $STEP)"

    if [ "$CHECK" = 1 ] && [ -n "$EXPECTED" ]; then
        if cmp -s "$OUT" "$EXPECTED"; then
            echo "check: $OUT equals $EXPECTED"
        else
            echo "check: $OUT differs from $EXPECTED" >&2
            diff "$OUT" "$EXPECTED" >&2 || true
            exit 1
        fi
    fi

    if [ "$SPRT_GAMES" -gt 0 ]; then
        grep -hv '^#' data/openings/gomoku-15-random.txt data/openings/gomoku-15-balanced.txt \
            | grep . >"$WORK/openings.txt"
        "$TABULA" selfplay gomoku --rule freestyle,renju --games "$SPRT_GAMES" \
            --openings "$WORK/openings.txt" --sprt "elo0=0 elo1=20 alpha=0.05 beta=0.05" \
            --a "level=8 movetime=$SPRT_MOVETIME weights=$OUT" \
            --b "level=8 movetime=$SPRT_MOVETIME weights=$START" >"$WORK/sprt.log"
        tail -n 4 "$WORK/sprt.log"
    fi
}

main "$@"; exit
