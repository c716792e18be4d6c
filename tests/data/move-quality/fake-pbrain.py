#!/usr/bin/env python3
"""A stand-in Gomocup engine for the move-quality bench's test, chosen by the name it runs under.

`judge` scores a position for the side to move as the sum of its stones' x minus the opponent's,
as a win (`+M3`) once 12 stones are on the board or when the opponent has a stone at x = 0, and
plays like `high`; `high` plays the empty point with the largest x (then the smallest y), `low`
the one with the smallest x.
"""
import os
import sys

mode = os.path.basename(sys.argv[0])
size, board, reading = 15, {}, False
for line in sys.stdin:
    words = line.strip().split(" ")
    if words[0] == "START":
        size = int(words[1])
        print("OK", flush=True)
    elif words[0] == "BOARD":
        board, reading = {}, True
    elif reading and words[0] == "DONE":
        reading = False
        empty = [(x, y) for x in range(size) for y in range(size) if (x, y) not in board]
        if mode == "low":
            move = min(empty)
        else:
            move = max(empty, key=lambda point: (point[0], -point[1]))
        if mode == "judge":
            if len(board) >= 12 or any(x == 0 and own == 2 for (x, _), own in board.items()):
                value = "+M3"
            else:
                value = sum(x if own == 1 else -x for (x, _), own in board.items())
            print(f"MESSAGE Speed 1K | Depth 1-1 | Eval {value} | Node 1 | Time 1ms", flush=True)
        print(f"{move[0]},{move[1]}", flush=True)
    elif reading:
        x, y, own = (int(number) for number in words[0].split(","))
        board[(x, y)] = own
    elif words[0] == "END":
        break
