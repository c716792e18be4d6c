#!/usr/bin/env python3
"""Gomoku search speed: Tabula against Rapfi on the positions of `tabula bench`, one thread each.

Neither engine is started by name from this repository: give the path of Tabula's release binary
and of a Rapfi binary (pbrain-rapfi). Both are driven over the Gomocup (Piskvork) protocol with the
same position (BOARD), rule, one thread and the same time per move; each engine's last MESSAGE
line before its move gives its nodes per second (Tabula: `nps N`, Rapfi: `Speed NK`) and its depth.
The engines run one after the other, position by position, so they see the same machine load.

    scripts/bench/speed-rapfi.py TABULA RAPFI [MILLISECONDS]

The move lists mirror BENCH_OPENINGS in src/games/gomoku/mod.rs (coordinates are letter = column,
number = row from 1); each is played under freestyle (rule 0) and renju (rule 4) on 15x15.
A node is not the same unit in both engines, so the ratio compares throughput, not work.
Positions where either engine answers in under a quarter of the time (a forced reply, such as
blocking a four) have no meaningful speed and are left out of the median.
"""
import re
import statistics
import subprocess
import sys

OPENINGS = [
    "h8",
    "h8 i9 j8",
    "h8 i8 h9 h7 g9 f10 i10",
    "h8 i9 i8 g8 j7 k6 j8 j9 k8",
    "h8 h9 i10 g8 j11 k12 g10 i7 f9",
]


def board_lines(moves):
    """Piskvork BOARD lines: 1 for the side to move's stones, 2 for the opponent's."""
    names = moves.split()
    lines = []
    for index, name in enumerate(names):
        x = ord(name[0]) - ord("a")
        y = int(name[1:]) - 1
        own = (len(names) - index) % 2 == 0
        lines.append(f"{x},{y},{1 if own else 2}")
    return lines


def think(binary, rule, moves, milliseconds):
    """Runs one search; returns (nodes per second, depth text, milliseconds) from the last MESSAGE
    line."""
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, bufsize=1)
    commands = ["START 15", f"INFO rule {rule}", "INFO thread_num 1",
                f"INFO timeout_turn {milliseconds}", "INFO timeout_match 1000000000",
                "INFO time_left 1000000000", "BOARD", *board_lines(moves), "DONE"]
    engine.stdin.write("".join(line + "\n" for line in commands))
    engine.stdin.flush()
    speed, depth, spent = None, None, 0
    while True:
        line = engine.stdout.readline()
        if not line:
            break
        line = line.strip()
        if re.fullmatch(r"\d+,\d+", line):
            break
        tabula = re.search(r"depth (\S+) .*nps (\d+) time (\d+)", line)
        rapfi = re.search(r"Speed ([\d.]+)([KM]?) \| Depth (\S+) .*Time (\d+)ms", line)
        if tabula:
            speed, depth, spent = int(tabula.group(2)), tabula.group(1), int(tabula.group(3))
        elif rapfi:
            scale = {"": 1, "K": 1e3, "M": 1e6}[rapfi.group(2)]
            speed, depth = float(rapfi.group(1)) * scale, rapfi.group(3)
            spent = int(rapfi.group(4))
    engine.stdin.write("END\n")
    engine.stdin.flush()
    engine.wait(timeout=30)
    return speed, depth, spent


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    tabula, rapfi = sys.argv[1], sys.argv[2]
    milliseconds = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    ratios = []
    print(f"{'position':<36} {'Tabula nps':>11} {'depth':>7} {'Rapfi nps':>11} {'depth':>7} {'ratio':>6}")
    for rule in (0, 4):
        for moves in OPENINGS:
            ours, our_depth, our_time = think(tabula, rule, moves, milliseconds)
            theirs, their_depth, their_time = think(rapfi, rule, moves, milliseconds)
            ratio = float("nan")
            if ours and theirs and min(our_time, their_time) >= milliseconds / 4:
                ratio = ours / theirs
                ratios.append(ratio)
            label = f"rule {rule}: {moves}"
            print(f"{label[:36]:<36} {ours or 0:>11.0f} {our_depth or '-':>7} "
                  f"{theirs or 0:>11.0f} {their_depth or '-':>7} {ratio:>6.2f}")
    if ratios:
        print(f"median Tabula/Rapfi nodes-per-second ratio over {len(ratios)} positions: "
              f"{statistics.median(ratios):.2f} ({milliseconds} ms per position)")


if __name__ == "__main__":
    main()
