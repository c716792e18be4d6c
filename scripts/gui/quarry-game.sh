#!/bin/bash
# Plays one Reversi game in Quarry (the GTK GUI for Go, Amazons and Reversi) on a virtual X display,
# with Tabula as a GTP engine, logs the GTP traffic and takes a screenshot of the final board.
#
# Usage: scripts/gui/quarry-game.sh TABULA_BINARY OUT_DIR [BLACK [WHITE [TIME_CONTROL]]]
#   BLACK, WHITE: Tabula (default) or "GRhino Reversi" (Debian's grhino, /usr/games/gtp-rhino)
#   TIME_CONTROL: Quarry's "Time control type" for Reversi: 0 none (default), 1 per game, 2 per move
# Needs Debian's quarry, xvfb, xdotool and imagemagick. The clicks are at the positions of Quarry
# 0.2.0's dialogs with its default theme. Writes OUT_DIR/gtp-<pid>.log per engine (see
# scripts/gui/gtp-log-proxy.py), OUT_DIR/board.png and OUT_DIR/home/.quarry (the configuration used).
set -euo pipefail
tabula=$(realpath "$1"); out=$(realpath -m "$2"); black=${3:-Tabula}; white=${4:-Tabula}; tc=${5:-0}
here=$(dirname "$(realpath "$0")")
mkdir -p "$out/home"
rm -f "$out"/gtp-*.log*
cat > "$out/home/.quarry" <<CFG
# This is Quarry configuration file.

[GTP Engine "Tabula "]
Screen name format	= "%n %v"
Name			= "Tabula"
Command line		= "python3 $here/gtp-log-proxy.py $out/gtp-{pid}.log $tabula"
Supported games		= "Reversi"

[GTP Engine "GRhino Reversi "]
Screen name format	= "%n %v"
Name			= "GRhino Reversi"
Command line		= "python3 $here/gtp-log-proxy.py $out/gtp-{pid}.log /usr/games/gtp-rhino"
Supported games		= "Reversi"

[New Game Parameters]
Game			= "Reversi"
White player name	= "white"
White is computer	= true
Engine playing white	= "$white"
Black player name	= "black"
Black is computer	= true
Engine playing black	= "$black"

[New Reversi Game Parameters]
Board size		= 8
Time control type	= $tc
Keep track of total time = 0
Time limit for game	= 02:00
Time limit for move	= 00:02
Main time		= 00:00
Overtime period length	= 00:30
Moves per overtime	= 10
CFG
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 800x600x24 >/dev/null 2>&1 &
xvfb=$!
export DISPLAY=$display
sleep 2
HOME="$out/home" /usr/games/quarry >"$out/quarry.stderr" 2>&1 &
quarry=$!
trap 'kill $quarry 2>/dev/null; kill $xvfb 2>/dev/null' EXIT
sleep 4
xdotool mousemove 95 26 click 1    # Control Center: New Game
sleep 3
xdotool mousemove 429 422 click 1   # Game & Players: Forward
sleep 2
[ -n "${QUARRY_RULES_SHOT:-}" ] && import -window root "$QUARRY_RULES_SHOT"
xdotool mousemove 432 422 click 1   # Game Rules: Play
# The game is over when neither engine has been asked anything for 15 s.
quiet=0
while [ $quiet -lt 15 ]; do
    sleep 1
    newest=$(stat -c %Y "$out"/gtp-*.log 2>/dev/null | sort -n | tail -1)
    if [ -n "$newest" ] && [ $(( $(date +%s) - newest )) -ge 1 ]; then quiet=$((quiet + 1)); else quiet=0; fi
done
import -window root -crop 784x590+0+0 "$out/board.png"
echo "logs: $(ls "$out"/gtp-*.log)"
