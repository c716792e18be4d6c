#!/bin/sh
# A GTP engine that misbehaves on purpose, for tests/tools/matches.rs. It accepts every command and
# answers `genmove` by MODE: `illegal` plays a1 (never legal in the first Othello moves),
# `crash` exits, `hang` never answers, `resign` resigns, `refuse` answers with an error. Each start appends a line
# to LOG, when given, so that a test can count restarts.
mode=$1
log=$2
[ -n "$log" ] && echo start >> "$log"
while IFS= read -r line; do
    set -- $line
    case "$1" in
        genmove)
            case "$mode" in
                illegal) printf '= a1\n\n' ;;
                crash) exit 3 ;;
                hang) sleep 1000 ;;
                resign) printf '= resign\n\n' ;;
                *) printf '? not today\n\n' ;;
            esac ;;
        known_command) printf '= false\n\n' ;;
        quit) printf '=\n\n'; exit 0 ;;
        *) printf '=\n\n' ;;
    esac
done
