#!/usr/bin/env python3
"""Openings that self-play does not decide by colour alone, from finished match runs.

Each RUN is a folder of `scripts/match/gomoku-sprt.sh` (or any `tabula match --records`
run): `openings.txt`, the openings in the order the match used them, and `games.jsonl`, the
game records, whose `opening` field numbers the openings from 1. Over every run given, an
opening is kept when it was played at least MIN_GAMES times and the first player won between
LOW and HIGH of those games: the game pairs on such openings are the ones in which a stronger
engine can win both games, so an SPRT on them decides with fewer games.

    scripts/match/contested-openings.py [--low 0.25] [--high 0.75] [--min-games 10] RUN... > FILE
"""
import argparse
import collections
import sys

from match_runs import games as run_games, is_run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="match folders with openings.txt and games.jsonl")
    parser.add_argument("--low", type=float, default=0.25, help="the least first-player share kept")
    parser.add_argument("--high", type=float, default=0.75, help="the largest first-player share kept")
    parser.add_argument("--min-games", type=int, default=10, help="games an opening needs")
    arguments = parser.parse_args()
    # opening text -> [first player's wins, second player's wins, draws]
    tally = collections.defaultdict(lambda: [0, 0, 0])
    order = []
    games = 0
    for run in arguments.runs:
        if not is_run(run):
            print(f"skipping {run}: no openings.txt or games.jsonl", file=sys.stderr)
            continue
        for opening, record in run_games(run):
            if opening is None:
                continue
            if opening not in tally:
                order.append(opening)
            result = record.get("result", "")
            # The first player is black, `B+`; an opening with an odd number of stones leaves
            # white to move, but the colour that won is what the tally needs.
            tally[opening][{"B": 0, "W": 1}.get(result[:1], 2)] += 1
            games += 1
    if games == 0:
        sys.exit("no games read: give match folders with openings.txt and games.jsonl")
    kept = []
    for opening in order:
        black, white, draws = tally[opening]
        total = black + white + draws
        if total >= arguments.min_games and arguments.low <= black / total <= arguments.high:
            kept.append(opening)
    print(f"{len(kept)} of {len(order)} openings kept from {games} games", file=sys.stderr)
    for opening in kept:
        print(opening)


if __name__ == "__main__":
    main()
