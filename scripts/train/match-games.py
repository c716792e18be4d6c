#!/usr/bin/env python3
"""Turns the Gomoku games of `tabula match` runs into the game files `tabula train gomoku` reads.

    scripts/train/match-games.py OUT_PREFIX MATCH_DIR...

Each MATCH_DIR holds a match's `games.jsonl` and the `openings.txt` it was played from (as
`scripts/match/gomoku-sprt.sh` leaves them). A game becomes one line `rule size moves result`:
its opening's moves, then the moves played, run together, and black's result (1, 0.5 or 0).
Games that did not end normally (a forfeit, an interrupted match) are left out, and so is a game
whose starting board is not the position of its opening's moves. The lines go to
OUT_PREFIX-RULE.txt, one file per rule; the counts go to stderr.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "match"))
from match_runs import games as run_games, is_run  # noqa: E402

RESULTS = {"B+": "1", "W+": "0"}


def board_stones(start, size):
    """The stones of a position string (rows from the top, `x` black, `o` white) as (move, colour)."""
    rows = start.split()[0].split("/")
    stones = set()
    for row, cells in enumerate(rows):
        for column, cell in enumerate(cells):
            if cell in "xo":
                stones.add((f"{chr(ord('a') + column)}{size - row}", cell))
    return stones


def opening_stones(moves):
    """The stones of an opening's moves, black first."""
    return {(move, "x" if index % 2 == 0 else "o") for index, move in enumerate(moves)}


def convert(folder, lines, skipped):
    for opening, game in run_games(folder):
        if game.get("game") != "gomoku":
            skipped["not a Gomoku game"] += 1
            continue
        if game.get("termination") != "normal":
            skipped["not finished on the board"] += 1
            continue
        if opening is None:
            skipped["opening not in openings.txt"] += 1
            continue
        rule = game["options"]["rule"]
        size = int(game["options"]["size"])
        moves = opening.split()
        if board_stones(game["start"], size) != opening_stones(moves):
            skipped["start does not match its opening"] += 1
            continue
        result = RESULTS.get(game["result"], "0.5")
        lines.setdefault(rule, []).append(f"{rule} {size} {''.join(moves + game['moves'])} {result}")


def main():
    if len(sys.argv) < 3:
        sys.exit(f"usage: {sys.argv[0]} OUT_PREFIX MATCH_DIR...")
    prefix = sys.argv[1]
    lines = {}
    skipped = {
        "not a Gomoku game": 0,
        "not finished on the board": 0,
        "opening not in openings.txt": 0,
        "start does not match its opening": 0,
    }
    for name in sys.argv[2:]:
        if not is_run(name):
            print(f"{name}: no games.jsonl and openings.txt, left out", file=sys.stderr)
            continue
        convert(name, lines, skipped)
    if not lines:
        sys.exit("no games found")
    for rule, games in sorted(lines.items()):
        path = f"{prefix}-{rule}.txt"
        Path(path).write_text("\n".join(games) + "\n")
        print(f"{path}: {len(games)} games", file=sys.stderr)
    for reason, count in skipped.items():
        if count:
            print(f"left out, {reason}: {count}", file=sys.stderr)


if __name__ == "__main__":
    main()
