#!/usr/bin/env bash
# Othello match: Tabula against an existing Edax build, refereed by `tabula match`.
#
#   scripts/match/edax.sh EDAX EDAX_DATA [tabula match options]    (or set EDAX and EDAX_DATA)
#
# Edax is not part of this repository and this script does not fetch or build it: give the path
# of an Edax binary and the directory holding its eval.dat and book.dat (book.dat need not exist,
# Edax creates an empty one on its first start, which takes a while). Edax runs in its GTP mode
# (-gtp) with one thread (-n 1), no pondering, no book, and a fixed time per move (-move-time).
# It is not sent time_settings (clock=off): Edax's GTP takes time_settings' main time as its
# per-move time when byo-yomi stones are given, so "time_settings 0 1 1" would leave it no time
# at all. Edax does not keep to per-move times well below a second (at MOVETIME=100 it took 0.68 s
# a move), so its time margin is EDAX_MARGIN ms (default 1000) before it loses on time.
#
# Overridable through the environment: GAMES (default 20), LEVEL (Tabula's level, 8), MOVETIME
# (ms per move for both engines, 1000), EDAX_ARGS (extra Edax options), EDAX_MARGIN, CONCURRENCY,
# OUT (results directory). Arguments after the first two go to `tabula match`.
set -euo pipefail

EDAX=${1:-${EDAX:-}}
EDAX_DATA=${2:-${EDAX_DATA:-}}
if [ -z "$EDAX" ] || [ -z "$EDAX_DATA" ]; then
    echo "usage: $0 EDAX_BINARY EDAX_DATA_DIR [tabula match options]   (or set EDAX and EDAX_DATA)" >&2
    exit 2
fi
shift $(( $# < 2 ? $# : 2 ))
EDAX=$(realpath "$EDAX")
EDAX_DATA=$(realpath "$EDAX_DATA")
[ -x "$EDAX" ] || { echo "not an executable: $EDAX" >&2; exit 2; }
[ -f "$EDAX_DATA/eval.dat" ] || { echo "no eval.dat in $EDAX_DATA" >&2; exit 2; }

cd "$(dirname "$0")/../.."
GAME=reversi
OPENINGS=data/openings/reversi.txt
GAMES=${GAMES:-20}
LEVEL=${LEVEL:-8}
MOVETIME=${MOVETIME:-1000}
EDAX_ARGS=${EDAX_ARGS:-}
EDAX_MARGIN=${EDAX_MARGIN:-1000}
OUT=${OUT:-target/matches/edax-$(date +%Y%m%d-%H%M%S)}
EDAX_SECONDS=$(awk -v ms="$MOVETIME" 'BEGIN { printf "%.3f", ms / 1000 }')

source scripts/match/common.sh
run_match --engine "cmd=$(printf '%q' "$EDAX") -gtp -n 1 -ponder off -book-usage off \
-move-time $EDAX_SECONDS -eval-file $(printf '%q' "$EDAX_DATA/eval.dat") \
-book-file $(printf '%q' "$EDAX_DATA/book.dat") $EDAX_ARGS" \
    name=edax clock=off "movetime=$MOVETIME" "margin=$EDAX_MARGIN" "$@"
