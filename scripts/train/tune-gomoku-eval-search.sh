#!/usr/bin/env bash
# The second stage of the Gomoku evaluation's tuning: the pattern weights fitted to labels from
# deeper searches as well as to game results. It starts from START, the output of the first stage
# (scripts/train/tune-gomoku-eval.sh, a fit to results alone), and writes OUT.
#
#   1. build the release binary;
#   2. self-play at a fixed depth (DEPTH, 4 by default) on one thread with START's weights
#      (`tabula selfplay gomoku`), GAMES games per rule, freestyle and renju (one process each),
#      from SEED's random two- and three-stone openings (not the first stage's seed);
#   3. label every EVERY-th position of each game (after the first 4 plies) with a search to
#      LABEL_DEPTH with START's weights, the score turned into an expected result and blended with
#      the game's result: label = (1 - SEARCH_WEIGHT) x result + SEARCH_WEIGHT x expected; fit the
#      weights to the labels, every HOLD_OUT-th game held out, and write the line-search
#      candidates START + a (fit - START) for a in STEPS (`tabula train gomoku --label-depth ...`;
#      the error on the held-out games of START, of each step, of the fit and of the hand-set
#      weights is in WORK/train.log);
#   4. write the candidate of step STEP to OUT;
#   5. with CHECK=1, compare OUT with EXPECTED (the exit status says whether they are equal);
#   6. with SPRT_CAP > 0, play OUT against START in an SPRT at SPRT_MOVETIME ms a move
#      (scripts/match/gomoku-sprt.sh with NODES=0, ELO1=20, one binary given each weights file),
#      freestyle and renju side by side, one game at a time each, each stopped after SPRT_CAP
#      seconds; the summaries are in WORK/sprt-RULE/summary.txt.
#
# Steps 2 to 5 are deterministic (fixed depths, seeded openings, one thread per game and per
# search, a fixed fit order): the same code and parameters give the same OUT. Step 6 is timed, so
# it is a test, not a step of the output: STEP names the candidate whose timed SPRT was run and
# recorded (docs/results/gomoku.md), and a candidate is committed only when that SPRT accepts it.
#
# Usage: scripts/train/tune-gomoku-eval-search.sh [OUT]   (OUT defaults to WORK/out.txt)
# Environment: START, EXPECTED, GAMES (per rule), DEPTH, SEED, LABEL_DEPTH, SEARCH_WEIGHT, EVERY,
#              HOLD_OUT, EPOCHS, STEPS, STEP, THREADS (of the labelling; the scores do not depend
#              on it), CHECK, SPRT_CAP, SPRT_MOVETIME, WORK.
set -euo pipefail

# Everything runs from a function: bash reads it whole, so editing the file mid-run is harmless.
main() {
    cd "$(dirname "$0")/../.."

    START=${START:-data/gomoku-weights-results.txt}
    EXPECTED=${EXPECTED:-data/gomoku-weights.txt}
    GAMES=${GAMES:-200}
    DEPTH=${DEPTH:-4}
    SEED=${SEED:-31}
    LABEL_DEPTH=${LABEL_DEPTH:-7}
    SEARCH_WEIGHT=${SEARCH_WEIGHT:-0.5}
    EVERY=${EVERY:-2}
    HOLD_OUT=${HOLD_OUT:-5}
    EPOCHS=${EPOCHS:-400}
    STEPS=${STEPS:-0.25,0.5,1}
    STEP=${STEP:-0.5}
    THREADS=${THREADS:-2}
    CHECK=${CHECK:-0}
    SPRT_CAP=${SPRT_CAP:-0}
    SPRT_MOVETIME=${SPRT_MOVETIME:-100}
    WORK=${WORK:-target/gomoku-tune-search}
    OUT=${1:-$WORK/out.txt}
    HAND=data/gomoku-weights-hand.txt
    FIXED="depth=$DEPTH movetime=none"

    mkdir -p "$WORK"
    cargo build --release --bin tabula
    TABULA=${CARGO_TARGET_DIR:-target}/release/tabula

    begin=$(date +%s)
    players=()
    for rule in freestyle renju; do
        rm -f "$WORK/games-$rule.txt"
        "$TABULA" selfplay gomoku --rule "$rule" --games "$GAMES" --seed "$SEED" --quiet \
            --a "$FIXED weights=$START" --b "$FIXED weights=$START" \
            --out "$WORK/games-$rule.txt" >"$WORK/selfplay-$rule.log" &
        players+=($!)
    done
    for player in "${players[@]}"; do
        wait "$player"
    done
    echo "self-play: $(( $(date +%s) - begin )) s"

    begin=$(date +%s)
    rm -f "$WORK"/fit*.txt
    "$TABULA" train gomoku --games "$WORK/games-freestyle.txt" --games "$WORK/games-renju.txt" \
        --start "$START" --epochs "$EPOCHS" --steps "$STEPS" --every "$EVERY" \
        --label-depth "$LABEL_DEPTH" --search-weight "$SEARCH_WEIGHT" --threads "$THREADS" \
        --scores "$WORK/scores.txt" --hold-out "$HOLD_OUT" --compare "$HAND" \
        --out "$WORK/fit.txt" 2>&1 | tee "$WORK/train.log"
    echo "labels and fit: $(( $(date +%s) - begin )) s"

    cp "$WORK/fit-$STEP.txt" "$OUT"
    echo "wrote $OUT (step $STEP)"

    if [ "$CHECK" = 1 ]; then
        if cmp -s "$OUT" "$EXPECTED"; then
            echo "check: $OUT equals $EXPECTED"
        else
            echo "check: $OUT differs from $EXPECTED" >&2
            diff "$OUT" "$EXPECTED" >&2 || true
            exit 1
        fi
    fi

    if [ "$SPRT_CAP" -gt 0 ]; then
        local binary
        binary=$(realpath "$TABULA")
        matches=()
        for rule in freestyle renju; do
            NODES=0 ELO1=20 RULE=$rule CONCURRENCY=1 CAP=$SPRT_CAP OUT="$WORK/sprt-$rule" \
                NEW_OPTIONS="option.weights=$(realpath "$OUT")" \
                BASE_OPTIONS="option.weights=$(realpath "$START")" \
                scripts/match/gomoku-sprt.sh "$binary" "$binary" \
                --movetime "$SPRT_MOVETIME" --margin 1000 >/dev/null 2>&1 &
            matches+=($!)
        done
        for match in "${matches[@]}"; do
            wait "$match" || true
        done
        for rule in freestyle renju; do
            echo "SPRT $rule:"
            tail -n 6 "$WORK/sprt-$rule/summary.txt"
        done
    fi
}

main "$@"
