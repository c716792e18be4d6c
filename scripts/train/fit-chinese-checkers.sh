#!/usr/bin/env bash
# Fits Chinese Checkers evaluation weights by regression on played games with
# `tabula train chinese-checkers` (src/tools/training/chinese_checkers_fit.rs): the games (level 8 at a fixed depth without the race solver,
# the other seats greedy, seats rotating) are replayed, and each position of the seat to move is
# labelled with the moves that seat still made before it finished; a least-squares fit of that
# label on the cost terms (rows, sideways, side camp, straggler, spread, hops) gives the moves per
# unit of each term, and the weights are those over the rows' one, in sixteenths of a row. No
# clock is read: the same arguments give the same weights on any machine, at any load.
#
#     scripts/train/fit-chinese-checkers.sh
#     ARGS="--engines-only --min-rows 10 --max-rows 60" scripts/train/fit-chinese-checkers.sh
#
# The last line, "fitted: key=value,...", is what `tabula selfplay chinese-checkers --first-weights` takes. None of the
# fitted weights has beaten Weights::DEFAULT (README, "Chinese Checkers seats"), so they are not
# the defaults. Environment: GAMES (400), SEED (101; the six-player measurements use seeds 1-40,
# so the fit's games are not among them), DEPTH (3), JOBS (1; results do not depend on it), ARGS
# (more arguments of `tabula train chinese-checkers`: --engines-only, --terms, --min-rows, --max-rows, --lineup).
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${GAMES:-400}
SEED=${SEED:-101}
DEPTH=${DEPTH:-3}
JOBS=${JOBS:-1}
ARGS=${ARGS:-}

cargo build --release --bin tabula
# shellcheck disable=SC2086
"${CARGO_TARGET_DIR:-target}/release/tabula" train chinese-checkers \
    --games "$GAMES" --seed "$SEED" --depth "$DEPTH" --jobs "$JOBS" $ARGS
