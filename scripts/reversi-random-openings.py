#!/usr/bin/env python3
"""Prints COUNT distinct Othello openings of PLIES uniformly random legal moves from the standard
start (one move sequence a line, as `tabula match --openings` reads them), seeded, so that the
same arguments print the same file.

Usage: scripts/reversi-random-openings.py COUNT PLIES SEED > openings.txt
"""
import random
import sys

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, side, row, column):
    if board[row][column] != ".":
        return []
    other = "o" if side == "x" else "x"
    found = []
    for dr, dc in DIRECTIONS:
        r, c, line = row + dr, column + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r][c] == other:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r][c] == side:
            found.extend(line)
    return found


def main():
    count, plies, seed = (int(word) for word in sys.argv[1:4])
    generator = random.Random(seed)
    seen = set()
    while len(seen) < count:
        board = [["."] * 8 for _ in range(8)]
        board[3][3] = board[4][4] = "o"
        board[3][4] = board[4][3] = "x"
        side, moves = "x", []
        while len(moves) < plies:
            legal = [(r, c) for r in range(8) for c in range(8) if flips(board, side, r, c)]
            if not legal:
                break
            r, c = generator.choice(legal)
            for fr, fc in flips(board, side, r, c):
                board[fr][fc] = side
            board[r][c] = side
            moves.append("abcdefgh"[c] + str(r + 1))
            side = "o" if side == "x" else "x"
        line = " ".join(moves)
        if len(moves) == plies and line not in seen:
            seen.add(line)
            print(line)


main()
