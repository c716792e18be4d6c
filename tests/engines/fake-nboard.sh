#!/bin/sh
# An NBoard engine that misbehaves on purpose, for tests/tools/matches.rs: it answers every ping, and
# answers `go` by MODE: `illegal` names a1 (never legal in the first Othello moves) in Edax's form
# (`=== a1 0.00 0.0`), `crash` exits.
mode=$1
while IFS= read -r line; do
    set -- $line
    case "$1" in
        ping) printf 'pong %s\n' "$2" ;;
        go)
            case "$mode" in
                illegal) printf 'status thinking\n=== a1 0.00 0.0\nstatus waiting\n' ;;
                *) exit 3 ;;
            esac ;;
        quit) exit 0 ;;
    esac
done
