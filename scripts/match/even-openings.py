#!/usr/bin/env python3
"""Gomoku openings that a judge engine scores near even, for matches against that engine.

    scripts/match/even-openings.py JUDGE FILE [--rule 0] [--size 15] [--within 100]
                                   [--milliseconds 2000] [--jobs 2] > OUT

FILE holds openings in Tabula's move notation or in c-gomoku-cli's offset format (as
scripts/match/openings-offset.py reads them). The JUDGE, a Gomocup engine such as Rapfi, searches
each opening once for --milliseconds on one thread; an opening is kept when its `Eval` for the
side to move lies within ±--within (a proven win, `M N`, never does). The kept openings are
written in the input's order and notation, under a header that says how they were chosen.
"""
import argparse
import concurrent.futures
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from gomocup_engine import last_eval, search  # noqa: E402

OFFSET = re.compile(r"^\s*-?\d+\s*,\s*-?\d+(\s*,\s*-?\d+\s*,\s*-?\d+)*\s*$")
MOVE = re.compile(r"^([a-z])(\d+)$")


def points(line, size):
    """The opening's stones as (x, y) from the top left corner, in the order played."""
    centre = size // 2
    if OFFSET.match(line):
        numbers = [int(number) for number in line.replace(",", " ").split()]
        return [(centre + numbers[i], centre + numbers[i + 1]) for i in range(0, len(numbers), 2)]
    stones = []
    for word in line.split():
        match = MOVE.match(word)
        if not match:
            raise ValueError(f"not a move: {word!r}")
        stones.append((ord(match.group(1)) - ord("a"), size - int(match.group(2))))
    return stones


def score(judge, rule, size, stones, milliseconds):
    """The judge's Eval for the side to move, or None for a proven result or no score."""
    _, printed = search(judge, rule, size, stones, milliseconds)
    value, proven = last_eval(printed)
    return None if proven else value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("judge", help="a Gomocup engine binary (pbrain-...)")
    parser.add_argument("file", help="openings, one a line")
    parser.add_argument("--rule", type=int, default=0, help="0 freestyle, 1 standard, 4 renju")
    parser.add_argument("--size", type=int, default=15, help="the board size")
    parser.add_argument("--within", type=int, default=100, help="the largest |score| kept")
    parser.add_argument("--milliseconds", type=int, default=2000, help="the judge's time each")
    parser.add_argument("--jobs", type=int, default=2, help="searches at once (one core each)")
    arguments = parser.parse_args()
    openings = []
    with open(arguments.file) as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                openings.append((line, points(line, arguments.size)))
            except ValueError as error:
                sys.exit(f"{arguments.file}:{number}: {error}")
    with concurrent.futures.ThreadPoolExecutor(arguments.jobs) as pool:
        scores = list(pool.map(
            lambda opening: score(arguments.judge, arguments.rule, arguments.size, opening[1],
                                  arguments.milliseconds), openings))
    kept = [(line, value) for (line, _), value in zip(openings, scores)
            if value is not None and abs(value) <= arguments.within]
    print(f"# {len(kept)} of the {len(openings)} openings of {os.path.basename(arguments.file)} "
          f"that {os.path.basename(arguments.judge)} scores within ±{arguments.within} for the "
          f"side to move")
    print(f"# (rule {arguments.rule}, {arguments.size}x{arguments.size}, "
          f"{arguments.milliseconds} ms, one thread): scripts/match/even-openings.py")
    for line, _ in kept:
        print(line)


if __name__ == "__main__":
    main()
