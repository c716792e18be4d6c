#!/usr/bin/env bash
# Writes balanced opening positions for self-play matches: positions reached by random legal
# moves (`examples/random_positions.rs`), each scored by a fixed-depth search (`tabula analyze`,
# one thread, so the scores do not depend on the machine), keeping those whose score is within
# MAX_SCORE of even, without repeats, in the order they were drawn. In lopsided openings both
# engines win with the same colour, so a pair of games tells nothing; balanced ones make more
# pairs count (see README, "Matches").
#
# Usage: scripts/match/balanced-openings.sh OUT [GAME COUNT PLIES SEED DEPTH MAX_SCORE [key=value...]]
#   defaults: reversi, 3000 candidates, 8 plies, seed 11, depth 10, within 2 (discs for Othello)
# Deterministic given its arguments and the evaluation in use.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: scripts/match/balanced-openings.sh OUT [GAME COUNT PLIES SEED DEPTH MAX_SCORE [key=value...]]}
game=${2:-reversi}
count=${3:-3000}
plies=${4:-8}
seed=${5:-11}
depth=${6:-10}
max_score=${7:-2}
options=("${@:8}")

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
cargo build --release --quiet --bin tabula --example random_positions
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$CARGO_TARGET_DIR/release/examples/random_positions" "$game" "$count" "$plies" "$plies" "$seed" \
    "${options[@]}" > "$work/candidates.txt"
option_flags=()
for option in "${options[@]}"; do option_flags+=(-o "$option"); done
"$CARGO_TARGET_DIR/release/tabula" analyze --game "$game" "${option_flags[@]}" --depth "$depth" \
    --jobs 1 --threads 1 --quiet --format csv --output "$work/scores.csv" "$work/candidates.txt"
# Columns: index, ..., position (6), ..., score_kind (9), score (10). Decided positions are left out.
sort -t, -k1,1n "$work/scores.csv" | awk -F, -v max="$max_score" '
    $9 == "heuristic" && $10 >= -max && $10 <= max && !seen[$6]++ { print $6 }' > "$out"
echo "$(wc -l < "$out") of $count positions within $max_score of even written to $out" >&2
