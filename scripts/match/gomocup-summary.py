#!/usr/bin/env python3
"""Summarises a c-gomoku-cli match of Tabula against another engine, from Tabula's side.

    scripts/match/gomocup-summary.py OUT TC

OUT is the match directory written by scripts/match/rapfi-gomocup.sh (games.sgf, c-gomoku-cli.1.log,
summary.txt); TC is the c-gomoku-cli time control the match used (e.g. 0/1).

Prints the score with how each game ended, the engines' thinking times, their ERROR/UNKNOWN lines
and the manager's lines about timeouts, crashes, illegal moves or errors.

A game in which neither engine made a move (only the opening's stones are on the board) is void:
it is left out of the score and counted apart. c-gomoku-cli gives such a game a result all the same
(seen when the opponent answered `START 15` with an error, a time forfeit with no move), and the
result it writes in the SGF is not the one it counts in its own score line, so neither is used.
"""
import re
import sys
from collections import Counter


def main(out, tc):
    text = open(f"{out}/games.sgf").read()
    games = re.findall(r"\(;(.*?)\)", text, re.S)
    score = Counter()
    endings = Counter()
    void = []
    times = {}
    for number, game in enumerate(games, 1):
        black = re.search(r"PB\[([^\]]*)\]", game).group(1)
        white = re.search(r"PW\[([^\]]*)\]", game).group(1)
        result = re.search(r"RE\[([^\]]*)\]", game).group(1)
        ending = re.search(r"TE\[([^\]]*)\]", game)
        ending = ending.group(1) if ending else result
        moves = re.findall(r";([BW])\[[a-z]*\]C\[(\d+)ms\]", game)
        if not moves:
            void.append(f"game {number} ({black} vs {white}): no move was played ({ending})")
            continue
        endings[ending] += 1
        winner = {"B": black, "W": white}.get(result[:1])
        score["draw" if winner is None else ("win" if winner == "Tabula" else "loss")] += 1
        for colour, milliseconds in moves:
            times.setdefault(black if colour == "B" else white, []).append(int(milliseconds))
    played = sum(score.values())
    points = score["win"] + score["draw"] / 2
    print(f"Tabula: +{score['win']} ={score['draw']} -{score['loss']} in {played} games "
          f"({100 * points / max(played, 1):.1f}%)")
    for ending, count in sorted(endings.items()):
        print(f"  {count} x {ending}")
    print(f"void games (left out of the score): {len(void)}")
    for line in void:
        print("  " + line)
    turn = tc.split("+")[0].split("/")[-1]
    limit = float(turn) * 1000 if turn else 0
    for name, values in sorted(times.items()):
        over = sum(1 for value in values if limit and value > limit)
        print(f"{name}: {len(values)} moves, mean {sum(values) / len(values):.0f} ms, "
              f"max {max(values)} ms, over the {limit:.0f} ms turn limit: {over}")
    log = open(f"{out}/c-gomoku-cli.1.log", errors="replace").read().splitlines()
    refusals = [line for line in log if re.search(r"-> (ERROR|UNKNOWN)", line)]
    print(f"ERROR/UNKNOWN lines from the engines: {len(refusals)}")
    for name, count in sorted(Counter(line.split()[0] for line in refusals).items()):
        print(f"  {name}: {count}")
    for line in refusals[:10]:
        print("  " + line)
    summary = open(f"{out}/summary.txt", errors="replace").read()
    forfeits = [line for line in summary.splitlines()
                if line.startswith("[") and re.search(r"timeout|crash|illegal|forbid|error", line, re.I)]
    print(f"manager lines about timeouts, crashes, illegal or forbidden moves, errors: {len(forfeits)}")
    for line in forfeits[:10]:
        print("  " + line)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: gomocup-summary.py OUT TC")
    main(sys.argv[1], sys.argv[2])
