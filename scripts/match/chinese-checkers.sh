#!/usr/bin/env bash
# Chinese Checkers match between seats, played in-process by `tabula selfplay chinese-checkers`
# (src/tools/selfplay/chinese_checkers.rs): any mix of Tabula levels 1-8 (with :brs, :paranoid,
# :mcts or :norace, and :tN for N search threads) and the reference design's greedy player, one
# thread per engine unless :tN, seats rotating from game to game. Prints one line per game, then
# results per contender and per seat and how the games ended; writes them with the machine load
# to OUT/summary.txt.
#
#     scripts/match/chinese-checkers.sh players=3 8,greedy,greedy
#     GAMES=100 MOVETIME=100 scripts/match/chinese-checkers.sh players=2 8,greedy
#     scripts/match/chinese-checkers.sh "players=6 jumps=long" 8,greedy,greedy,greedy,greedy,greedy
#
# Arguments: the game options (one word list, quoted), the lineup (one contender per seat, in the
# seating of the first game), then any further options of `tabula selfplay chinese-checkers` (--seed, --opening,
# --nodes, --depth, --jobs, ...). Overridable through the environment: GAMES (default 50),
# MOVETIME (ms per move, default 100), OUT (results directory).
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
cd "$(dirname "$0")/../.."
OPTIONS=$1
LINEUP=$2
shift 2
GAMES=${GAMES:-50}
MOVETIME=${MOVETIME:-100}
OUT=${OUT:-target/matches/chinese-checkers-$(date +%Y%m%d-%H%M%S)}

cargo build --release --bin tabula
mkdir -p "$OUT"
echo "load before the match: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" | tee "$OUT/summary.txt"
"${CARGO_TARGET_DIR:-target}/release/tabula" selfplay chinese-checkers \
    --options "$OPTIONS" --lineup "$LINEUP" --games "$GAMES" --movetime "$MOVETIME" \
    --verbose "$@" | tee -a "$OUT/summary.txt"
echo "load after the match: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/summary.txt"
