#!/usr/bin/env bash
# Othello match: Tabula against gtp-rhino (GRhino's GTP front-end), refereed by scripts/gtp_match.py.
#
# Installs grhino if gtp-rhino is missing, builds Tabula in release mode, then plays GAMES games
# (default 20: ten openings, each with both colours). Tabula plays at LEVEL with MOVETIME ms per
# move on one thread. gtp-rhino has no time control (it ignores time_settings/time_left and
# searches to fixed depths), so RHINO_ARGS picks its depths. The default is its strongest level
# (-l 5: win/loss/draw search from 20 empties, exact from 18) with the midgame depth cut from 10
# to 8 (-m 8): a midgame move then takes 0.4 s of CPU (median; at depth 10, tens of seconds),
# comparable to Tabula's second, though its win/loss/draw search at 20 empties still takes
# 30-120 s of CPU once a game. Its time per move is measured and reported;
# RHINO_TIMEOUT seconds without a reply loses a game. gtp-rhino's play command takes no pass:
# it passes by itself, and the referee detects that (--pass2 auto falls back to implied passes).
#
# Overridable through the environment: GAMES, LEVEL, MOVETIME, RHINO_ARGS, RHINO_TIMEOUT,
# OUT (results directory). Extra arguments go to gtp_match.py.
set -euo pipefail

cd "$(dirname "$0")/.."
GAMES=${GAMES:-20}
LEVEL=${LEVEL:-8}
MOVETIME=${MOVETIME:-1000}
RHINO_ARGS=${RHINO_ARGS:--l 5 -m 8}
RHINO_TIMEOUT=${RHINO_TIMEOUT:-600}
OUT=${OUT:-target/matches/grhino-$(date +%Y%m%d-%H%M%S)}

RHINO=$(command -v gtp-rhino || true)
if [ -z "$RHINO" ] && [ -x /usr/games/gtp-rhino ]; then RHINO=/usr/games/gtp-rhino; fi
if [ -z "$RHINO" ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y grhino
    RHINO=/usr/games/gtp-rhino
fi

source scripts/match-common.sh
run_match \
    --engine2 "$RHINO $RHINO_ARGS" --name2 gtp-rhino --timeout2 "$RHINO_TIMEOUT" "$@"
