#!/usr/bin/env bash
# Solves the FFO endgame suite #40-#59 exactly, checks every score against the known answers and
# prints the time and nodes of each position and in total.
#
#   scripts/bench/ffo.sh [threads] [first] [last]      (defaults: 2 threads, #40..#59)
#
# Example: scripts/bench/ffo.sh 2 40 49   — the #40-#49 half, the issue's 12-second target.
set -euo pipefail
cd "$(dirname "$0")/../.."
threads=${1:-2}
first=${2:-40}
last=${3:-59}
cargo build --release --quiet
exec target/release/tabula solve tests/data/ffo-40-59.obf \
    --first-number 40 --from "$first" --to "$last" --threads "$threads" --hash 512
