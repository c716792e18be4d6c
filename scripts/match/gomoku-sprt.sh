#!/usr/bin/env bash
# Self-play SPRT for a Gomoku search change: NEW against BASE, two Tabula engines at level 8 on
# one thread each, at a fixed node count per move (NODES; 0 for none, then give a clock such as
# `--movetime 100`). A node count is immune to the machine's load, but it does not charge a change
# for work it adds per node (Gomoku's proof searches at inner nodes are not counted): pruning
# that leaves out leaves gained at 20,000 nodes and lost at 100 ms a move, so confirm a node-count
# result at a time control, and a pruning change that gains at 100 ms at a longer clock (400 ms):
# a deeper search reaches more of what it prunes. The openings are the 200 random and 183 balanced
# 15x15 ones of data/openings/ (383 pairs with colours swapped; with a fixed node count both
# engines are deterministic, so a second round would only repeat the first), then as many more
# random ones as EXTRA asks (four stones in the 7x7 square around the centre, drawn by Python's
# random.Random(34)), for a run with many cores.
#
#   scripts/match/gomoku-sprt.sh NEW BASE [tabula match options]
#
# NEW and BASE are engine commands (a binary, or `env NAME=VALUE binary`), each split like a
# shell command. The referee is NEW unless REFEREE names another Tabula binary. Overridable
# through the environment: NODES (20000), RULE (freestyle; renju and standard too), CONCURRENCY
# (2), EXTRA (0), OPENINGS (the opening files, the two above by default;
# data/openings/gomoku-15-contested.txt holds the openings that self-play at 100 ms did not decide
# by colour alone, the SPRT's quicker choice at a time per move; gomoku-15-renju-contested.txt
# holds those of renju), ROUNDS (1: how many times each
# opening pair is played; more only where the games vary, at a time per move), ELO0 and ELO1 (0
# and 10), CAP (a wall-clock limit in seconds: the match is then
# interrupted and prints its summary of the finished games), OUT (where summary.txt and
# games.jsonl go), NEW_OPTIONS and BASE_OPTIONS (more key=value words for each engine, such as
# `option.weights=FILE` to play two weight files with one binary).
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 NEW BASE [tabula match options]" >&2
    exit 2
fi
NEW=$1
BASE=$2
shift 2
cd "$(dirname "$0")/../.."
REFEREE=${REFEREE:-${NEW##* }}
NODES=${NODES:-20000}
RULE=${RULE:-freestyle}
OUT=${OUT:-target/matches/gomoku-sprt-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
# shellcheck disable=SC2086 # OPENINGS is a list of files.
OPENINGS=${OPENINGS:-data/openings/gomoku-15-random.txt data/openings/gomoku-15-balanced.txt}
grep -hv '^#' $OPENINGS | grep . > "$OUT/openings.txt"
if [ "${EXTRA:-0}" -gt 0 ]; then
    python3 - "$EXTRA" >> "$OUT/openings.txt" <<'PYTHON'
import random, sys
draw = random.Random(34)
square = [(x, y) for x in range(4, 11) for y in range(4, 11)]
for _ in range(int(sys.argv[1])):
    stones = draw.sample(square, 4)
    print(" ".join("abcdefghijklmno"[x] + str(y + 1) for x, y in stones))
PYTHON
fi
pairs=$(wc -l < "$OUT/openings.txt")
limit=()
if [ -n "${CAP:-}" ]; then
    limit=(timeout --signal=INT --kill-after=30 "$CAP")
fi
echo "load before the match: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" | tee "$OUT/summary.txt"
status=0
${limit[@]+"${limit[@]}"} "$REFEREE" match --game gomoku -o "rule=$RULE" \
    --engine "cmd=$NEW" name=new option.threads=1 option.level=8 "option.nodes=$NODES" \
    ${NEW_OPTIONS:-} \
    --engine "cmd=$BASE" name=base option.threads=1 option.level=8 "option.nodes=$NODES" \
    ${BASE_OPTIONS:-} \
    --concurrency "${CONCURRENCY:-2}" --openings "$OUT/openings.txt" \
    --games "$((2 * pairs * ${ROUNDS:-1}))" \
    --sprt "elo0=${ELO0:-0}" "elo1=${ELO1:-10}" alpha=0.05 beta=0.05 --rating-interval 50 \
    --records "$OUT/games.jsonl" "$@" 2>&1 | tee -a "$OUT/summary.txt" || status=$?
echo "load after the match: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/summary.txt"
exit "$status"
