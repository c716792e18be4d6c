#!/usr/bin/env bash
# Fits Gomoku's move-ordering values (FITTED_ORDERING in src/games/gomoku/candidates.rs) to the
# moves level 8 played in data/gomoku-ordering-games.txt, and prints them with how well they and
# the hand-set values predict the played moves of the held-out games. The fit is deterministic:
# the same games give the same values.
#
#   scripts/train/fit-gomoku-ordering.sh [GAMES_FILE...]
#
# To fit other games: a `tabula match` run (such as scripts/match/gomoku-sprt.sh leaves) becomes a
# games file with scripts/train/match-games.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    files=(data/gomoku-ordering-games.txt)
fi
cargo build --release --quiet
arguments=()
for file in "${files[@]}"; do
    arguments+=(--games "$file")
done
target/release/tabula train gomoku-ordering "${arguments[@]}"
