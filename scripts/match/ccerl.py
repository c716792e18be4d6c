#!/usr/bin/env python3
"""Tabula against an engine of the CCERL-2P10-v2 rating list, under the list's own CCP referee.

    scripts/match/ccerl.py REFEREE OPPONENT_CMD TABULA OPENINGS_DIR [--openings N] [--start S]
                           [--movetime MS] [--shards K] [--out DIR] [--label NAME]
                           [--opponent-rating R] [--position-info CMD_PATH] [--summarize DIR]

REFEREE is the referee script (JumpStar's tools/ccp_referee.py, run with python3); OPPONENT_CMD the
opponent's CCP command line (one quoted word); TABULA Tabula's binary, run as `TABULA --protocol ccp`
at its default level, which is checked to be 8; OPENINGS_DIR the directory of the list's opening
file (official_elo_v2.jsonl, or the only .jsonl there). The first N openings (from S) are played
with both colours at MS a move. With --shards K, K referees play disjoint runs of openings side by
side (each engine process plays one shard). Writes the referee's logs and summary.txt under DIR,
and prints the score, the Elo difference with its 95% interval, and the rating this implies on the
list's scale: the opponent's rating (default 737, tt-pvs) plus the difference. That inference goes
through ONE engine of the list, not through the list's pool; the output says so.

--summarize DIR only reads the logs of an earlier run (every games-*.jsonl there) and reports.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

TABULA_LABEL = "tabula"
Z95 = 1.959964


def opening_file(directory: Path) -> Path:
    if directory.is_file():
        return directory
    preferred = directory / "official_elo_v2.jsonl"
    if preferred.exists():
        return preferred
    found = sorted(directory.glob("*.jsonl"))
    if len(found) != 1:
        sys.exit(f"ccerl: expected official_elo_v2.jsonl or one .jsonl file in {directory}")
    return found[0]


def check_level(tabula: str) -> str:
    """Tabula's CCP greeting; the match needs level 8, its default."""
    done = subprocess.run([tabula, "--protocol", "ccp"], input="ccp\nquit\n", text=True,
                          capture_output=True, timeout=60)
    level = [line for line in done.stdout.splitlines() if line.startswith("option name Level")]
    if not level or " default 8 " not in level[0] + " ":
        sys.exit(f"ccerl: Tabula's CCP default level is not 8: {level}")
    names = [line for line in done.stdout.splitlines() if line.startswith("id name")]
    return names[0][len("id name "):] if names else "Tabula"


def elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def wilson(points: float, n: int) -> tuple[float, float]:
    p = points / n
    centre = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def interval(wins: int, draws: int, losses: int) -> tuple[float, float, str]:
    """95% interval of the score: the normal one on the per-game scores (cutechess-cli's), or
    Wilson's where that one is empty or leaves (0, 1) (no losses, say)."""
    n = wins + draws + losses
    p = (wins + 0.5 * draws) / n
    variance = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / n
    half = Z95 * math.sqrt(variance / n)
    low, high = p - half, p + half
    if variance > 0 and 0.0 < low and high < 1.0:
        return low, high, "normal"
    low, high = wilson(wins + 0.5 * draws, n)
    return low, high, "Wilson"


def fmt_elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def summarize(logs: list[Path], rating: float, opponent: str) -> list[str]:
    wins = draws = losses = 0
    reasons: dict[str, int] = {}
    forfeits = {"illegal_move": {TABULA_LABEL: 0, opponent: 0},
                "protocol_error": {TABULA_LABEL: 0, opponent: 0}}
    by_colour = {0: [0, 0, 0], 1: [0, 0, 0]}
    plies = []
    details = []
    for log in logs:
        seats = {}
        for line in log.read_text().splitlines():
            record = json.loads(line)
            if record["type"] == "ccp_game_start":
                seats[record["game_id"]] = (record["p0"], record["p1"], record.get("position_id"))
            elif record["type"] == "ccp_game_end":
                p0, p1, position = seats[record["game_id"]]
                ours = 0 if p0 == TABULA_LABEL else 1
                reason = record["reason"]
                reasons[reason] = reasons.get(reason, 0) + 1
                plies.append(record["plies"])
                if reason in forfeits:
                    loser = 1 - record["winner"]
                    culprit = TABULA_LABEL if loser == ours else opponent
                    forfeits[reason][culprit] += 1
                    details.append(f"  {log.name} game {record['game_id']} ({position}): {reason} by "
                                   f"{culprit}: {record.get('detail', '')}")
                if record["draw"]:
                    draws += 1
                    by_colour[ours][1] += 1
                elif record["winner"] == ours:
                    wins += 1
                    by_colour[ours][0] += 1
                else:
                    losses += 1
                    by_colour[ours][2] += 1
    n = wins + draws + losses
    if n == 0:
        return ["no finished games"]
    points = wins + 0.5 * draws
    score = points / n
    low, high, kind = interval(wins, draws, losses)
    diff, diff_low, diff_high = elo(score), elo(low), elo(high)
    implied = rating + diff
    lines = [
        f"games {n}: Tabula {wins} wins, {draws} draws, {losses} losses; {points:g} points ({100 * score:.1f}%)",
        f"  as player 0 (moves first): W {by_colour[0][0]} D {by_colour[0][1]} L {by_colour[0][2]}; "
        f"as player 1: W {by_colour[1][0]} D {by_colour[1][1]} L {by_colour[1][2]}",
        f"  endings: {', '.join(f'{key} {value}' for key, value in sorted(reasons.items()))}; "
        f"mean length {sum(plies) / n:.1f} plies",
        f"illegal moves: Tabula {forfeits['illegal_move'][TABULA_LABEL]}, {opponent} "
        f"{forfeits['illegal_move'][opponent]}; protocol errors: Tabula "
        f"{forfeits['protocol_error'][TABULA_LABEL]}, {opponent} {forfeits['protocol_error'][opponent]}",
        *details,
        f"Elo difference Tabula - {opponent}: {fmt_elo(diff)}, 95% interval [{fmt_elo(diff_low)}, "
        f"{fmt_elo(diff_high)}] (score interval {100 * low:.1f}%-{100 * high:.1f}%, {kind})",
        f"implied CCERL-2P10-v2 rating: {opponent} {rating:g} {fmt_elo(diff)} = "
        + (f"{implied:.0f}" if math.isfinite(implied) else fmt_elo(implied))
        + f", 95% interval [{rating + diff_low:.0f}, "
        + (f"{rating + diff_high:.0f}" if math.isfinite(diff_high) else "+inf") + "]",
        f"NOTE: this rating is inferred through ONE engine of the list ({opponent}, rated {rating:g}); "
        "it is not a rating from the list's pool and inherits every error of that one anchor.",
    ]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("referee", nargs="?")
    parser.add_argument("opponent", nargs="?", help="the opponent's CCP command (one word)")
    parser.add_argument("tabula", nargs="?")
    parser.add_argument("openings", nargs="?")
    parser.add_argument("--openings", dest="count", type=int, default=86, help="how many openings (default 86)")
    parser.add_argument("--start", type=int, default=0, help="the first opening, from 0")
    parser.add_argument("--movetime", type=int, default=300, help="ms per move (default 300)")
    parser.add_argument("--shards", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--label", default="tt-pvs", help="the opponent's name (default tt-pvs)")
    parser.add_argument("--opponent-rating", type=float, default=737.0)
    parser.add_argument("--position-info", help="the rules core the referee asks (its --engine)")
    parser.add_argument("--timeout", type=float, default=10.0, help="the referee's seconds per reply")
    parser.add_argument("--summarize", type=Path, help="only report on the logs in this directory")
    args = parser.parse_args()

    if args.summarize:
        logs = sorted(args.summarize.glob("games-*.jsonl"))
        print("\n".join(summarize(logs, args.opponent_rating, args.label)))
        return 0
    if not (args.referee and args.opponent and args.tabula and args.openings):
        parser.error("REFEREE OPPONENT_CMD TABULA OPENINGS_DIR are needed")

    referee = Path(args.referee).resolve()
    tabula = str(Path(args.tabula).resolve())
    version = check_level(tabula)
    positions = [line for line in opening_file(Path(args.openings)).read_text().splitlines() if line.strip()]
    chosen = positions[args.start:args.start + args.count]
    if not chosen:
        sys.exit("ccerl: no openings chosen")
    out = args.out or Path("target/matches") / f"ccerl-{datetime.now():%Y%m%d-%H%M%S}"
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    shards = max(1, min(args.shards, len(chosen)))
    size = math.ceil(len(chosen) / shards)
    header = [
        f"{version} (level 8) against {args.label} under {referee}",
        f"openings {args.start}..{args.start + len(chosen) - 1} of {len(positions)}, both colours, "
        f"{args.movetime} ms a move, {shards} shard(s); started {datetime.now():%Y-%m-%d %H:%M}",
        f"load before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores",
    ]
    print("\n".join(header), flush=True)
    procs = []
    for index in range(shards):
        part = chosen[index * size:(index + 1) * size]
        if not part:
            continue
        subset = out / f"openings-{index}.jsonl"
        subset.write_text("\n".join(part) + "\n")
        command = [sys.executable, str(referee),
                   "--engine-a-cmd", f"{shlex.quote(tabula)} --protocol ccp", "--engine-a-label", TABULA_LABEL,
                   "--engine-b-cmd", args.opponent, "--engine-b-label", args.label,
                   "--positions", str(subset), "--out", str(out / f"games-{index}.jsonl"),
                   "--movetime-ms", str(args.movetime), "--timeout-seconds", str(args.timeout)]
        if args.position_info:
            command += ["--engine", str(Path(args.position_info).resolve())]
        procs.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
    started = time.monotonic()
    failed = sum(1 for proc in procs if proc.wait() != 0)
    lines = header + [f"wall time {time.monotonic() - started:.0f} s; load after: {os.getloadavg()[0]:.2f}"]
    if failed:
        lines.append(f"WARNING: {failed} referee(s) failed; the games they finished are counted")
    lines += summarize(sorted(out.glob("games-*.jsonl")), args.opponent_rating, args.label)
    (out / "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines[len(header):]))
    print(f"logs and summary.txt in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
