#!/usr/bin/env bash
# A Piskvork brain for tests/tools/matches.rs: it plays the first empty point in reading order, after a
# MESSAGE line. With MODE `occupied` it plays the point the opponent just took instead.
mode=${1:-first}
declare -A taken
size=15
last=
play() {
    echo "MESSAGE thinking"
    if [ "$mode" = occupied ] && [ -n "$last" ]; then
        echo "$last"
        return
    fi
    for ((y = 0; y < size; y++)); do
        for ((x = 0; x < size; x++)); do
            if [ -z "${taken[$x,$y]}" ]; then
                taken[$x,$y]=1
                echo "$x,$y"
                return
            fi
        done
    done
}
board=0
while IFS= read -r line; do
    line=${line%$'\r'}
    if [ $board = 1 ]; then
        if [ "${line^^}" = DONE ]; then
            board=0
            play
        else
            IFS=, read -r x y owner <<< "$line"
            taken[$x,$y]=$owner
            [ "$owner" = 2 ] && last="$x,$y"
        fi
        continue
    fi
    case "${line^^}" in
        START*) size=${line#* }; taken=(); last=; echo OK ;;
        BEGIN) play ;;
        TURN*) point=${line#* }; IFS=, read -r x y <<< "$point"; taken[$x,$y]=2; last="$x,$y"; play ;;
        BOARD) board=1; taken=() ;;
        INFO*) ;;
        END) exit 0 ;;
        ABOUT) echo 'name="fake", version="1"' ;;
        *) echo "UNKNOWN $line" ;;
    esac
done
