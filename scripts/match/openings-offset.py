#!/usr/bin/env python3
"""Writes Gomoku openings in c-gomoku-cli's offset format.

    scripts/match/openings-offset.py FILE [--size 15] > OFFSETS

FILE holds one opening a line in Tabula's move notation (`h8 i9 j8`: a column letter from `a`,
a row number from 1 at the bottom), as the files under data/openings/ do; lines starting with
`#` and blank lines are skipped. Each opening becomes one line of `x,y` pairs counted from the
centre of the board, with y growing downwards, as c-gomoku-cli places them: `0,0, 1,-1, 2,0`.
A line already in the offset format is copied as it is.
"""
import argparse
import re
import sys

MOVE = re.compile(r"^([a-z])(\d+)$")
OFFSET_LINE = re.compile(r"^\s*-?\d+\s*,\s*-?\d+(\s*,\s*-?\d+\s*,\s*-?\d+)*\s*$")


def offsets(line, size):
    """The offset form of one opening in move notation; raises ValueError on a bad move."""
    centre = size // 2
    pairs = []
    for word in line.split():
        match = MOVE.match(word)
        if not match:
            raise ValueError(f"not a move: {word!r}")
        column = ord(match.group(1)) - ord("a")
        row = int(match.group(2))
        if not (0 <= column < size and 1 <= row <= size):
            raise ValueError(f"{word} is off a {size}x{size} board")
        # Rows count from the bottom in Tabula's notation, from the top in c-gomoku-cli's.
        pairs.append(f"{column - centre},{size - row - centre}")
    return ", ".join(pairs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="openings in Tabula's move notation, one a line")
    parser.add_argument("--size", type=int, default=15, help="the board size (default 15)")
    arguments = parser.parse_args()
    written = 0
    with open(arguments.file) as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if OFFSET_LINE.match(line):
                print(line)
            else:
                try:
                    print(offsets(line, arguments.size))
                except ValueError as error:
                    sys.exit(f"{arguments.file}:{number}: {error}")
            written += 1
    if written == 0:
        sys.exit(f"{arguments.file}: no openings")


if __name__ == "__main__":
    main()
