#!/usr/bin/env python3
"""Gomoku move quality judged by Rapfi: how much of Rapfi's evaluation each Tabula build gives away.

A match against Rapfi takes hundreds of games to tell two builds apart, and self-play does not
always agree with it. This bench asks Rapfi instead, move by move: on positions where Tabula was
to move in recorded games against Rapfi, each build chooses a move in the same time as in a match,
and Rapfi, searching longer, scores the position before the move and the position after each
chosen move. A move's loss is Rapfi's score of the position before it (for the side to move)
minus its score after it (negated: the opponent is then to move). Two builds that choose the same
move lose the same; only the positions where they differ can separate them, and Rapfi scores each
distinct move once.

Neither engine is built by this script. Rapfi without a config.toml next to it uses its classical
evaluation; both are driven over the Gomocup (Piskvork) protocol, one thread each.

    scripts/bench/gomoku-move-quality.py RAPFI SGF... --build NAME=TABULA[@MS] [--build ...]
        [--movetime 1000] [--judge-time 2000] [--positions 200] [--seed 1] [--jobs 2]
        [--player Tabula] [--from-ply 5] [--decided 1500] [--out FILE.jsonl]

The SGF files are c-gomoku-cli's game records (scripts/match/rapfi-gomocup.sh writes
games.sgf). Every position after the opening where the engine named --player (default Tabula) was
to move is a candidate; --positions of them are drawn with --seed, and those Rapfi already scores
beyond ±--decided (a game decided on the board, or nearly) are left out. A build's `@MS` gives it
its own time a move instead of --movetime (the same binary at two times calibrates the bench).
Prints, per build, the mean and median loss, the share of moves losing 300 points or more
(blunders), of moves into a lost game (Rapfi finds a win for the opponent after the move), the
share equal to Rapfi's own choice, and for each pair of builds, on the positions where their moves
differ, which move Rapfi scored higher how often and the mean difference of their losses, with a
95% interval.

Calibrated on two cores (docs/results/gomoku.md, 2026-11-28), it did not separate one build at
1000 ms a move from the same build at 250 ms over 138-180 positions: do not accept or reject a
change on its word until a larger run separates such a time odds.

Rapfi's scores: its `Eval` of the last MESSAGE line of each search, in its own units; a win or
loss in N plies (`M N`) counts as ±(20000 - N). Losses are capped at 3000, so that one missed win
does not outweigh everything else. A position after a move that Rapfi answers without a score (a
reply it plays at once) is searched again with a move's worth of time more, and left out if it
still has none.
"""
import argparse
import concurrent.futures
import json
import math
import random
import re
import statistics
import sys

from gomocup_engine import MATE, last_eval, search

CAP = 3000
BLUNDER = 300


def sgf_positions(path, player):
    """(rule, size, moves, mover) for every position where `player` was to move after the opening."""
    text = open(path).read()
    found = []
    for game in text.split("(;")[1:]:
        size = int(re.search(r"SZ\[(\d+)\]", game).group(1))
        rule = int((re.search(r"RU\[(\d+)\]", game) or [None, "0"])[1])
        black = re.search(r"PB\[([^\]]*)\]", game).group(1)
        nodes = re.findall(r";([BW])\[([a-z])([a-z])\](C\[([^\]]*)\])?", game)
        moves = []
        for colour, x, y, _, comment in nodes:
            point = (ord(x) - ord("a"), ord(y) - ord("a"))
            mover_is_player = (colour == "B") == (black == player)
            if comment != "opening move" and mover_is_player:
                found.append((rule, size, list(moves)))
            moves.append(point)
    return found


def think(binary, rule, size, moves, milliseconds):
    """One search; returns (move, Rapfi's `Eval` of its last MESSAGE line or None)."""
    move, printed = search(binary, rule, size, moves, milliseconds)
    return move, last_eval(printed)[0]


def point_name(point):
    return f"{chr(ord('a') + point[0])}{point[1]}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rapfi", help="a pbrain-rapfi binary (the judge)")
    parser.add_argument("sgf", nargs="+", help="c-gomoku-cli game records")
    parser.add_argument("--build", action="append", required=True,
                        help="NAME=TABULA[@MS]: a build to judge (give two or more to compare)")
    parser.add_argument("--movetime", type=int, default=1000, help="each build's time a move, ms")
    parser.add_argument("--judge-time", type=int, default=2000, help="Rapfi's time a position, ms")
    parser.add_argument("--positions", type=int, default=200, help="positions drawn")
    parser.add_argument("--seed", type=int, default=1, help="the draw's seed")
    parser.add_argument("--jobs", type=int, default=2, help="searches at once (one core each)")
    parser.add_argument("--player", default="Tabula", help="the engine's name in the records")
    parser.add_argument("--from-ply", type=int, default=5, help="the first ply drawn")
    parser.add_argument("--decided", type=int, default=1500,
                        help="leave out positions Rapfi scores beyond this")
    parser.add_argument("--out", help="write each position's record here (JSON Lines)")
    arguments = parser.parse_args()

    builds = []
    for text in arguments.build:
        name, _, binary = text.partition("=")
        binary, _, milliseconds = binary.partition("@")
        if not binary or (milliseconds and not milliseconds.isdigit()):
            sys.exit(f"--build wants NAME=TABULA or NAME=TABULA@MS, not {text!r}")
        builds.append((name, binary, int(milliseconds or arguments.movetime)))
    positions = [position for path in arguments.sgf
                 for position in sgf_positions(path, arguments.player)
                 if len(position[2]) >= arguments.from_ply]
    if not positions:
        sys.exit("no positions: check --player and the records")
    random.Random(arguments.seed).shuffle(positions)
    positions = positions[:arguments.positions]
    pool = concurrent.futures.ThreadPoolExecutor(arguments.jobs)

    # Rapfi's score of each position before the move, and its own choice.
    before = list(pool.map(lambda p: think(arguments.rapfi, *p, arguments.judge_time), positions))
    kept = [index for index, (_, value) in enumerate(before)
            if value is not None and abs(value) <= arguments.decided]
    print(f"{len(positions)} positions drawn, {len(kept)} undecided by Rapfi's score "
          f"(within ±{arguments.decided})", file=sys.stderr)

    chosen = {}
    for name, binary, milliseconds in builds:
        chosen[name] = dict(zip(kept, pool.map(
            lambda index: think(binary, *positions[index], milliseconds)[0], kept)))
    # Each distinct move once: the opponent to move, so the score is negated.
    after = {}
    wanted = sorted({(index, move) for moves in chosen.values()
                     for index, move in moves.items() if move is not None})

    def judge(item):
        index, move = item
        rule, size, moves = positions[index]
        for milliseconds in (arguments.judge_time, 2 * arguments.judge_time):
            value = think(arguments.rapfi, rule, size, moves + [move], milliseconds)[1]
            if value is not None:
                return -value
        return None

    for item, value in zip(wanted, pool.map(judge, wanted)):
        after[item] = value

    losses = {name: {} for name, _, _ in builds}
    records = []
    for index in kept:
        rule, size, moves = positions[index]
        record = {"rule": rule, "size": size,
                  "moves": " ".join(point_name(move) for move in moves),
                  "rapfi": {"move": point_name(before[index][0]), "eval": before[index][1]}}
        for name, _, _ in builds:
            move = chosen[name][index]
            if move is None or after[(index, move)] is None:
                continue
            loss = min(CAP, max(-CAP, before[index][1] - after[(index, move)]))
            losses[name][index] = loss
            record[name] = {"move": point_name(move), "after": after[(index, move)], "loss": loss}
        records.append(record)
    if arguments.out:
        with open(arguments.out, "w") as out:
            for record in records:
                out.write(json.dumps(record) + "\n")

    def share(count, total):
        return f"{count} ({100 * count / total:.1f}%)"

    print("| build | positions | mean loss | median loss | blunders (loss >= 300) "
          "| into a lost game | Rapfi's move |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, _, _ in builds:
        values = list(losses[name].values())
        same = sum(1 for index in losses[name] if chosen[name][index] == before[index][0])
        blunders = sum(1 for value in values if value >= BLUNDER)
        lost = sum(1 for index in losses[name] if after[(index, chosen[name][index])] <= -MATE // 2)
        print(f"| {name} | {len(values)} | {statistics.mean(values):.1f} | "
              f"{statistics.median(values):.0f} | {share(blunders, len(values))} | "
              f"{share(lost, len(values))} | {share(same, len(values))} |")
    for first in range(len(builds)):
        for second in range(first + 1, len(builds)):
            a, b = builds[first][0], builds[second][0]
            common = [index for index in losses[a] if index in losses[b]]
            differing = [index for index in common if chosen[a][index] != chosen[b][index]]
            if len(differing) < 2:
                print(f"{a} - {b}: {len(differing)} positions with different moves, too few")
                continue
            # Rapfi's score before the move cancels out: only the scores after the two moves count.
            differences = [min(CAP, max(-CAP, after[(index, chosen[b][index])]
                                        - after[(index, chosen[a][index])]))
                           for index in differing]
            mean = statistics.mean(differences)
            half = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences))
            better = sum(1 for difference in differences if difference < 0)
            worse = sum(1 for difference in differences if difference > 0)
            print(f"{a} - {b}: {len(differing)} of {len(common)} positions with different "
                  f"moves; Rapfi prefers {a}'s move {better} times, {b}'s {worse}; mean loss "
                  f"difference {mean:+.1f} (95% {mean - half:+.1f} .. {mean + half:+.1f}); "
                  f"lower is better for {a}")


if __name__ == "__main__":
    main()
