#!/usr/bin/env bash
# Othello match: Tabula against gtp-rhino (GRhino's GTP front-end), refereed by `tabula match`.
#
#   scripts/match/grhino.sh RHINO [tabula match options]      (or set RHINO)
#
# RHINO is the gtp-rhino binary (Debian's grhino package installs /usr/games/gtp-rhino); this
# script neither installs nor builds it. Tabula plays at LEVEL with MOVETIME ms per move on one
# thread, GAMES games (default 20: the ten openings of data/openings/reversi.txt, each with both
# colours). gtp-rhino has no clock (it ignores time_settings/time_left and searches to fixed
# depths), so it plays without a time control and RHINO_ARGS pick its depths. The default is its
# strongest level (-l 5: win/loss/draw search from 20 empties, exact from 18) with the midgame
# depth cut from 10 to 8 (-m 8): a midgame move then takes 0.4 s of CPU (median; at depth 10,
# tens of seconds), comparable to Tabula's second, though its win/loss/draw search at 20 empties
# still takes 30-120 s of CPU once a game. RHINO_TIMEOUT seconds without a reply loses a game (a
# hang). gtp-rhino's play command takes no pass: it passes by itself, so passes stay implied.
#
# Overridable through the environment: GAMES, LEVEL, MOVETIME, RHINO_ARGS, RHINO_TIMEOUT,
# CONCURRENCY, OUT (results directory). Further arguments go to `tabula match`.
set -euo pipefail

RHINO=${1:-${RHINO:-}}
if [ -z "$RHINO" ]; then
    echo "usage: $0 RHINO [tabula match options]   (RHINO: the gtp-rhino binary, e.g. /usr/games/gtp-rhino)" >&2
    exit 2
fi
shift $(( $# < 1 ? $# : 1 ))
RHINO=$(realpath "$RHINO")
[ -x "$RHINO" ] || { echo "not an executable: $RHINO" >&2; exit 2; }

cd "$(dirname "$0")/../.."
GAME=reversi
OPENINGS=data/openings/reversi.txt
GAMES=${GAMES:-20}
LEVEL=${LEVEL:-8}
MOVETIME=${MOVETIME:-1000}
RHINO_ARGS=${RHINO_ARGS:--l 5 -m 8}
RHINO_TIMEOUT=${RHINO_TIMEOUT:-600}
OUT=${OUT:-target/matches/grhino-$(date +%Y%m%d-%H%M%S)}

source scripts/match/common.sh
run_match --engine "cmd=$(printf '%q' "$RHINO") $RHINO_ARGS" name=gtp-rhino tc=none movetime=none \
    "timeout=$RHINO_TIMEOUT" pass=implied "$@"
