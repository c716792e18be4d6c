#!/usr/bin/env bash
# Gomoku match: Tabula against Rapfi in the c-gomoku-cli match manager, over the Gomocup protocol.
#
# Neither c-gomoku-cli nor Rapfi is part of this repository and this script does not fetch or build
# them: give the path of a c-gomoku-cli binary and of a Rapfi binary (pbrain-rapfi). c-gomoku-cli
# runs an engine in the directory of its binary; Rapfi reads a config.toml there (or in its working
# directory) if one exists, and uses its built-in classical evaluation otherwise.
#
# Tabula's release binary is built and linked as target/matches/<run>/pbrain-tabula, the name
# Gomocup managers expect, so it speaks Gomocup without any option. Both engines get the same
# time control, one thread each (INFO thread_num 1) and the manager's default max_memory; games
# are played from balanced openings, each opening twice with the colours swapped (-repeat), one at
# a time unless CONCURRENCY says otherwise.
#
#   scripts/match/rapfi-gomocup.sh C_GOMOKU_CLI RAPFI [extra c-gomoku-cli options]
#
# Overridable through the environment:
#   RULE      0 freestyle (default), 1 exactly five, 4 renju
#   SIZE      board size (default 15)
#   GAMES     games (default 20: 10 openings, each with both colours)
#   TC        c-gomoku-cli time control (default 0/1: no game limit, 1 s per move; MATCH/TURN+INC
#             in seconds, e.g. 60/5 or 0/0.5)
#   OPENINGS  openings file, in c-gomoku-cli's offset format or in Tabula's move notation (the
#             files under data/openings/, `#` comments allowed; converted by
#             scripts/match/openings-offset.py into OUT/openings.txt); played in file order, so
#             GAMES=80 takes the first 40 (default data/gomoku-openings-renju.txt for renju,
#             data/gomoku-openings-freestyle.txt otherwise)
#   OUT       results directory (default target/matches/rapfi-<rule>-<size>-<date>)
#   CONCURRENCY  games played at once (default 1); give each game a core of its own
#   TABULA    a Tabula binary to use as it is (default: build target/release/tabula here)
#   RAPFI_MAX_DEPTH  holds Rapfi to this search depth (c-gomoku-cli's engine option depth=N,
#             which sends it INFO max_depth N); unset: full Rapfi. The time control still applies.
#
# Results in OUT: summary.txt (c-gomoku-cli's output, the score from Tabula's side, the moves'
# thinking times, protocol errors and forfeits, the machine load), games.sgf, games.pgn,
# messages.txt (the engines' MESSAGE lines), c-gomoku-cli.1.log (every line exchanged), load.txt.
set -euo pipefail

MANAGER=${1:-}
RAPFI=${2:-}
if [ -z "$MANAGER" ] || [ -z "$RAPFI" ]; then
    echo "usage: $0 C_GOMOKU_CLI RAPFI [c-gomoku-cli options]" >&2
    exit 2
fi
shift 2
MANAGER=$(realpath "$MANAGER")
RAPFI=$(realpath "$RAPFI")
[ -x "$MANAGER" ] || { echo "not an executable: $MANAGER" >&2; exit 2; }
[ -x "$RAPFI" ] || { echo "not an executable: $RAPFI" >&2; exit 2; }

cd "$(dirname "$0")/../.."
RULE=${RULE:-0}
SIZE=${SIZE:-15}
GAMES=${GAMES:-20}
TC=${TC:-0/1}
case "$RULE" in
    0) RULE_NAME=freestyle ;;
    1) RULE_NAME=standard ;;
    4) RULE_NAME=renju ;;
    *) echo "RULE must be 0, 1 or 4" >&2; exit 2 ;;
esac
if [ "$RULE" = 4 ]; then
    OPENINGS=${OPENINGS:-data/gomoku-openings-renju.txt}
else
    OPENINGS=${OPENINGS:-data/gomoku-openings-freestyle.txt}
fi
OPENINGS=$(realpath "$OPENINGS")
OUT=${OUT:-target/matches/rapfi-$RULE_NAME-$SIZE-$(date +%Y%m%d-%H%M%S)}
RAPFI_LIMITS=()
if [ -n "${RAPFI_MAX_DEPTH:-}" ]; then
    RAPFI_LIMITS=(depth="$RAPFI_MAX_DEPTH")
fi

CONCURRENCY=${CONCURRENCY:-1}
if [ -z "${TABULA:-}" ]; then
    cargo build --release
    TABULA=${CARGO_TARGET_DIR:-target}/release/tabula
fi
[ -x "$TABULA" ] || { echo "not an executable: $TABULA" >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
ln -sf "$(realpath "$TABULA")" "$OUT/pbrain-tabula"
python3 scripts/match/openings-offset.py "$OPENINGS" --size "$SIZE" > "$OUT/openings.txt"

{
    echo "Tabula $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- src 2>/dev/null || echo '+changes') ($TABULA) vs Rapfi ($RAPFI)"
    echo "rule $RULE ($RULE_NAME), ${SIZE}x$SIZE, $GAMES games, tc=$TC, concurrency $CONCURRENCY, openings $OPENINGS"
    echo "Rapfi max depth: ${RAPFI_MAX_DEPTH:-none}"
    echo "load before the match: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
} | tee "$OUT/summary.txt"
(while sleep 30; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; done) > "$OUT/load.txt" &
SAMPLER=$!
trap 'kill "$SAMPLER" 2>/dev/null || true' EXIT

# c-gomoku-cli writes its -log file into its working directory.
(
    cd "$OUT"
    "$MANAGER" -each tc="$TC" thread=1 \
        -engine name=Tabula cmd="$OUT/pbrain-tabula" \
        -engine name=Rapfi cmd="$RAPFI" "${RAPFI_LIMITS[@]}" \
        -rule "$RULE" -boardsize "$SIZE" -games "$GAMES" -repeat -concurrency "$CONCURRENCY" \
        -drawafter $((SIZE * SIZE)) \
        -openings file="$OUT/openings.txt" type=offset order=sequential \
        -pgn games.pgn -sgf games.sgf -msg messages.txt -log "$@"
) 2>&1 | tee -a "$OUT/summary.txt"

echo "load after the match: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/summary.txt"
awk '{ sum += $2; n++; if ($2 > max) max = $2 } END { if (n) printf "1-minute load during the match: mean %.2f, max %.2f over %d samples\n", sum / n, max, n }' \
    "$OUT/load.txt" | tee -a "$OUT/summary.txt"

# The score from Tabula's side, how each game ended, the thinking times, void games, and every
# ERROR, UNKNOWN or forfeit, from the SGF, the manager's output and its log.
python3 scripts/match/gomocup-summary.py "$OUT" "$TC" | tee -a "$OUT/summary.txt"
