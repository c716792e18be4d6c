#!/usr/bin/env bash
# Gomoku match: Tabula against a Gomocup (Piskvork) brain such as Rapfi, refereed by
# `tabula match`.
#
#   scripts/match/rapfi.sh BRAIN [tabula match options]      (or set BRAIN)
#
# BRAIN is the brain's binary (e.g. a Rapfi you built as pbrain-rapfi); this script neither
# fetches nor builds it. It runs from the current directory (Rapfi reads a config.toml from its
# working directory if there is one, and otherwise uses its built-in classical evaluation). Both
# engines get MOVETIME ms per move (the brain as INFO timeout_turn); Tabula plays at LEVEL on one
# thread. GAMES games (default 20: the ten openings of data/openings/gomoku-15.txt, each with
# both colours) on 15x15 under RULE (freestyle, standard or renju).
#
# Overridable through the environment: GAMES, LEVEL, MOVETIME, RULE, CONCURRENCY, OUT. Further
# arguments go to `tabula match`.
set -euo pipefail

BRAIN=${1:-${BRAIN:-}}
if [ -z "$BRAIN" ]; then
    echo "usage: $0 BRAIN [tabula match options]   (BRAIN: a Piskvork brain, e.g. pbrain-rapfi)" >&2
    exit 2
fi
shift $(( $# < 1 ? $# : 1 ))
BRAIN=$(realpath "$BRAIN")
[ -x "$BRAIN" ] || { echo "not an executable: $BRAIN" >&2; exit 2; }

cd "$(dirname "$0")/../.."
GAME=gomoku
GAME_OPTIONS=(-o "rule=${RULE:-freestyle}")
OPENINGS=data/openings/gomoku-15.txt
GAMES=${GAMES:-20}
LEVEL=${LEVEL:-8}
MOVETIME=${MOVETIME:-1000}
OUT=${OUT:-target/matches/rapfi-$(date +%Y%m%d-%H%M%S)}

source scripts/match/common.sh
run_match --engine "cmd=$(printf '%q' "$BRAIN")" proto=piskvork name="$(basename "$BRAIN")" \
    "movetime=$MOVETIME" "$@"
