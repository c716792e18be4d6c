#!/usr/bin/env python3
"""Gomoku bench against Rapfi: depth reached and nodes per second in the same time, one thread each.

Neither engine is built or fetched by this script: give the path of Tabula's release binary and of
a Rapfi binary (pbrain-rapfi, built from dhbloo/rapfi; without a config.toml next to it, Rapfi uses
its classical evaluation). Both are driven over the Gomocup (Piskvork) protocol with the same
position (BOARD), rule, board size, one thread and the same time for the move
(`INFO timeout_turn`); Tabula detects the protocol from `START`. Each engine's last MESSAGE line
before its move gives its depth, nodes and time (Tabula: `depth D-S ... nodes N nps R time T`;
Rapfi: `Speed R | Depth D-S | Eval E | Node N | Time T`).

    scripts/bench/gomoku-rapfi.py TABULA RAPFI [MILLISECONDS] [--repeat N]

The positions: the ten of Rapfi's own benchmark (Rapfi/command/benchmark.cpp, position strings in
Rapfi's notation: letter = x from `a`, number = y from 1, Gomocup's coordinates), then the five
freestyle openings of `tabula bench` (BENCH_OPENINGS in src/games/gomoku/mod.rs, written here the
same way). The engines run one after the other, position by position, so they see the same machine
load; with --repeat N each search is run N times and the medians are printed. A node is not the
same unit in both engines, so the nodes-per-second ratio compares throughput, not work. A position
where either engine answers in under a quarter of the time (a forced reply or a proven result) is
marked `*` and left out of the medians.
"""
import re
import statistics
import sys

from gomocup_engine import search

# (name, rule, size, moves): rule 0 freestyle, 1 standard (exactly five), 4 renju.
POSITIONS = [
    ("rapfi-1", 0, 15, "h8g7f6g8g9"),
    ("rapfi-2", 0, 15, "h2h5h4f6"),
    ("rapfi-3", 0, 20, "e2f2h3g3g6h5f9"),
    ("rapfi-4", 0, 20, "f5e3b7h5g3g4i6e4h4d4f2i5f4f6e5d6d7e7f8"),
    ("rapfi-5", 1, 15, "h8h7j6i7f7"),
    ("rapfi-6", 1, 15, "f6i9h8"),
    ("rapfi-7", 1, 15, "b3k10g2f6"),
    ("rapfi-8", 4, 15, "h8i9j10i8i7g9"),
    ("rapfi-9", 4, 15, "h8h9j9j8f8i7g7i9h6e9f6k7l6i10i6f9g9g11h10i11i8"),
    ("rapfi-10", 4, 15, "h8h9h6i10i6i9g9g8j11i7"),
    ("tabula-1", 0, 15, "h8"),
    ("tabula-2", 0, 15, "h8i9j8"),
    ("tabula-3", 0, 15, "h8i8h9h7g9f10i10"),
    ("tabula-4", 0, 15, "h8i9i8g8j7k6j8j9k8"),
    ("tabula-5", 0, 15, "h8h9i10g8j11k12g10i7f9"),
]

RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju"}


def parse_moves(text):
    """Rapfi's position string: a letter for x (from 0), a number for y (from 1)."""
    return [(ord(letter) - ord("a"), int(number) - 1)
            for letter, number in re.findall(r"([a-z])(\d+)", text)]


def scaled(number, suffix):
    return float(number) * {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}[suffix]


def milliseconds(number, unit):
    return float(number) * {"ms": 1, "s": 1000, "min": 60000, "m": 60000, "h": 3600000}[unit]


def think(binary, rule, size, moves, budget):
    """One search; returns dict(move, depth, nodes, nps, time) from the engine's last MESSAGE line."""
    move, printed = search(binary, rule, size, moves, budget)
    result = {}
    for line in printed:
        tabula = re.search(r"depth (\d+)-(\d+) .*nodes (\d+) nps (\d+) time (\d+)", line)
        rapfi = re.search(r"Speed ([\d.]+)([KMG]?) \| Depth (\d+)-(\d+) .*Node ([\d.]+)([KMG]?)"
                          r" \| Time ([\d.]+)(ms|s|min|m|h)", line)
        if tabula:
            result = {"depth": int(tabula.group(1)), "seldepth": int(tabula.group(2)),
                      "nodes": int(tabula.group(3)), "nps": int(tabula.group(4)),
                      "time": int(tabula.group(5))}
        elif rapfi:
            result = {"depth": int(rapfi.group(3)), "seldepth": int(rapfi.group(4)),
                      "nodes": scaled(rapfi.group(5), rapfi.group(6)),
                      "nps": scaled(rapfi.group(1), rapfi.group(2)),
                      "time": milliseconds(rapfi.group(7), rapfi.group(8))}
    if move is not None:
        result["move"] = f"{move[0]},{move[1]}"
    return result


def median_of(runs, key):
    values = [run[key] for run in runs if key in run]
    return statistics.median(values) if values else None


def main():
    args = [arg for arg in sys.argv[1:]]
    repeat = 1
    if "--repeat" in args:
        at = args.index("--repeat")
        repeat = int(args[at + 1])
        del args[at:at + 2]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    tabula, rapfi = args[0], args[1]
    budget = int(args[2]) if len(args) > 2 else 1000
    print(f"| position | rule | size | Tabula depth | Tabula nodes | Tabula nodes/s | "
          f"Rapfi depth | Rapfi nodes | Rapfi nodes/s | nodes/s ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    depth_gaps, ratios, ours_all, theirs_all = [], [], [], []
    for name, rule, size, text in POSITIONS:
        moves = parse_moves(text)
        ours_runs, theirs_runs = [], []
        for _ in range(repeat):
            ours_runs.append(think(tabula, rule, size, moves, budget))
            theirs_runs.append(think(rapfi, rule, size, moves, budget))
        ours = {key: median_of(ours_runs, key) for key in ("depth", "nodes", "nps", "time")}
        theirs = {key: median_of(theirs_runs, key) for key in ("depth", "nodes", "nps", "time")}
        counted = all(side["time"] is not None and side["time"] >= budget / 4
                      for side in (ours, theirs))
        ratio = ours["nps"] / theirs["nps"] if ours["nps"] and theirs["nps"] else float("nan")
        if counted:
            ratios.append(ratio)
            depth_gaps.append(theirs["depth"] - ours["depth"])
            ours_all.append(ours["nps"])
            theirs_all.append(theirs["nps"])

        def cell(value, digits=0):
            return "-" if value is None else f"{value:,.{digits}f}"

        mark = "" if counted else " *"
        print(f"| {name}{mark} | {RULE_NAMES[rule]} | {size} | {cell(ours['depth'])} | "
              f"{cell(ours['nodes'])} | {cell(ours['nps'])} | {cell(theirs['depth'])} | "
              f"{cell(theirs['nodes'])} | {cell(theirs['nps'])} | {ratio:.2f} |", flush=True)
    if ratios:
        print(f"\nmedians over {len(ratios)} positions ({budget} ms each, {repeat} run(s) each): "
              f"Tabula {statistics.median(ours_all):,.0f} nodes/s, Rapfi "
              f"{statistics.median(theirs_all):,.0f} nodes/s, ratio "
              f"{statistics.median(ratios):.2f}; Rapfi deeper by "
              f"{statistics.median(depth_gaps):.1f} plies (median)")


if __name__ == "__main__":
    main()
