#!/usr/bin/env python3
"""Referee for Othello matches between two GTP engines.

Plays a series of games between two engines given as command lines. Each game starts from one of a
fixed list of openings (or from a file of openings), and each opening is played twice with the
colours swapped. A third process, Tabula itself, is the arbiter: it is told every move, it decides
legality and the end of the game, and its ``final_score`` and ``position`` give the result. An
engine that plays an illegal move, refuses a legal one, crashes, or does not answer within its
timeout loses the game.

Dialogue with the engines:

* Fresh engine processes for every game; ``setup`` commands (``--setup1``/``--setup2``) are sent
  first, then ``set_game Othello`` (if the engine knows the command) and ``clear_board``.
* Each move: ``genmove <colour>`` to the side to move, ``play <colour> <move>`` to the other one.
* Passes: an engine may answer ``pass`` (any case). Telling the other engine about a pass has two
  styles: ``explicit`` sends ``play <colour> pass``; ``implied`` sends nothing, and the engine infers
  the pass from the next move (gtp-rhino's ``play`` only takes a square and passes by itself).
  ``auto`` (the default) tries the explicit pass and falls back to implied if the engine refuses it.
* A side that must pass is still asked ``genmove``; any answer other than ``pass`` forfeits.
* Clock: with ``--clock1 on`` (or ``auto`` and an engine that knows ``time_settings``) the engine
  gets ``time_settings 0 T 1`` (byo-yomi of T seconds per move) and ``time_left <colour> T 1``
  before each ``genmove``. T is the engine's per-move time, in whole seconds.
* At the end, each engine that knows ``final_score`` is asked for it; an answer that differs from
  the arbiter's is noted in the game's line (the dialogue lost sync) but does not change the result.

Time per move is measured here, from sending ``genmove`` to reading the reply; a move slower than
the engine's per-move time plus ``--overrun-ms`` is counted as an overrun (reported, not punished).
On Linux the engine's CPU time per move is also read from /proc, which shows how much of the wall
time the engine really ran on a loaded machine.

Elo: with W wins, D draws, L losses in N games, the score is p = (W + D/2) / N and the Elo
difference is E(p) = -400 * log10(1/p - 1). The per-game variance is
s^2 = (W (1-p)^2 + D (1/2-p)^2 + L p^2) / N, the standard error of p is s / sqrt(N), and the 95%
interval is [E(p - 1.96 SE), E(p + 1.96 SE)] (the normal approximation for p, mapped through the
logistic curve). The "+-" figure printed is half that interval's width. At a score of 0% or
100% the variance is zero and the estimate infinite; then the exact binomial (Clopper-Pearson) 95%
bound is given instead: with N wins in N games the score is at least 0.025^(1/N).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import queue
import shlex
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

REPO = Path(__file__).resolve().parent.parent

# Openings from the standard start (black d5 e4, white d4 e5; black moves first), 4 to 8 plies,
# spread over the three replies to f5 (perpendicular d6, diagonal f6, parallel f4).
OPENINGS: list[tuple[str, str]] = [
    ("A", "f5 d6 c3 d3 c4"),
    ("B", "f5 d6 c5 f4 e3 f6"),
    ("C", "f5 d6 c4 d3 c3 f4"),
    ("D", "f5 d6 c5 f4 d3"),
    ("E", "f5 f6 e6 f4 c3"),
    ("F", "f5 f6 e6 f4 g5 d6"),
    ("G", "f5 f6 e6 f4 e3 c5 c4"),
    ("H", "f5 f6 e6 d6 c5 e3"),
    ("I", "f5 f4 e3 f6 d3"),
    ("J", "f5 f4 e3 d6 e6 f6 g5 e2"),
]

COLOURS = ("black", "white")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class EngineFailure(Exception):
    """An engine crashed, hung or broke the protocol; it loses the game."""

    def __init__(self, engine: "Engine", reason: str):
        super().__init__(f"{engine.label}: {reason}")
        self.engine = engine
        self.reason = reason


class Forfeit(Exception):
    """An engine lost the game by a rule: an illegal move, a refusal or a resignation."""

    def __init__(self, loser: str, reason: str):
        super().__init__(reason)
        self.loser = loser
        self.reason = reason


@dataclass
class EngineSpec:
    """How to start and drive one engine, from the command line."""

    label: str
    command: list[str]
    setup: list[str]
    movetime_ms: int
    timeout_s: float
    clock: str
    pass_style: str


class Engine:
    """One GTP process: numbered commands are not used, replies are read up to the blank line."""

    def __init__(self, spec: EngineSpec, log: IO[str] | None, stderr_path: Path | None,
                 startup_timeout: float):
        self.spec = spec
        self.label = spec.label
        self.log = log
        self.pass_style = spec.pass_style
        self.clock = False
        stderr: IO[bytes] | int = subprocess.DEVNULL
        self._stderr_file = None
        if stderr_path is not None:
            self._stderr_file = open(stderr_path, "wb")
            stderr = self._stderr_file
        try:
            self.process = subprocess.Popen(
                spec.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                text=True, bufsize=1, errors="replace")
        except OSError as error:
            raise EngineFailure(self, f"cannot start {spec.command!r}: {error}") from error
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.startup_timeout = startup_timeout

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _note(self, text: str) -> None:
        if self.log is not None:
            self.log.write(f"{time.monotonic():.3f} {text}\n")
            self.log.flush()

    def send(self, command: str, timeout: float) -> tuple[bool, str]:
        """Sends a command; returns (success, reply text). Raises EngineFailure on a crash or timeout."""
        self._note(f"{self.label} < {command}")
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise EngineFailure(self, f"crashed (write failed: {error})") from error
        deadline = time.monotonic() + timeout
        status: str | None = None
        text: list[str] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._note(f"{self.label} timeout after {timeout:.1f} s")
                raise EngineFailure(self, f"no reply to '{command}' within {timeout:.1f} s")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                code = self.process.poll()
                self._note(f"{self.label} end of output (exit code {code})")
                raise EngineFailure(self, f"crashed during '{command}' (exit code {code})")
            self._note(f"{self.label} > {line}")
            if status is None:
                stripped = line.strip()
                if stripped[:1] in ("=", "?"):
                    status = stripped[0]
                    # "=text", "=12 text", "= text": GTP replies may carry the command id.
                    rest = stripped[1:]
                    digits = len(rest) - len(rest.lstrip("0123456789"))
                    text.append(rest[digits:].strip())
                # Anything before the reply (info lines, banners) is skipped.
                continue
            if line.strip() == "":
                return status == "=", "\n".join(text).strip()
            text.append(line)

    def command(self, command: str, timeout: float = 30.0) -> str:
        """Sends a command that must succeed."""
        ok, text = self.send(command, timeout)
        if not ok:
            raise EngineFailure(self, f"refused '{command}': {text}")
        return text

    def start_game(self) -> None:
        """Setup commands, the game and the clock, before the first move."""
        _, name = self.send("name", self.startup_timeout)
        self._note(f"{self.label} is '{name}'")
        for setup in self.spec.setup:
            ok, reply = self.send(setup, 30.0)
            if not ok:
                sys.exit(f"{self.label} refused the setup command '{setup}': {reply}")
        if self.command("known_command set_game").lower() == "true":
            self.command("set_game Othello")
        self.command("clear_board")
        seconds = self.spec.movetime_ms // 1000
        wants_clock = self.spec.clock == "on" or (
            self.spec.clock == "auto"
            and self.command("known_command time_settings").lower() == "true")
        if wants_clock and seconds > 0 and self.spec.movetime_ms % 1000 == 0:
            self.command(f"time_settings 0 {seconds} 1")
            self.clock = True

    def cpu_seconds(self) -> float | None:
        """CPU time used so far by the engine process and its threads (Linux only)."""
        try:
            with open(f"/proc/{self.process.pid}/stat", encoding="ascii") as stat:
                # The command name may hold spaces; the fields after it are fixed.
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        user, system = int(fields[11]), int(fields[12])
        return (user + system) / CLOCK_TICKS

    def genmove(self, colour: str) -> tuple[str, float, float | None]:
        """Asks for a move; returns it in lower case with the wall and CPU time it took."""
        if self.clock:
            self.command(f"time_left {colour} {self.spec.movetime_ms // 1000} 1")
        cpu_before = self.cpu_seconds()
        start = time.monotonic()
        ok, reply = self.send(f"genmove {colour}", self.spec.timeout_s)
        elapsed = time.monotonic() - start
        cpu_after = self.cpu_seconds()
        cpu = None
        if cpu_before is not None and cpu_after is not None:
            cpu = cpu_after - cpu_before
        if not ok:
            raise Forfeit(self.label, f"genmove {colour} failed: {reply}")
        return reply.strip().lower(), elapsed, cpu

    def tell(self, colour: str, move: str) -> None:
        """Tells the engine the opponent's move, passes included per its pass style."""
        if move == "pass":
            if self.pass_style == "implied":
                self._note(f"{self.label} (pass by {colour} left implied)")
                return
            ok, reply = self.send(f"play {colour} pass", 30.0)
            if ok:
                self.pass_style = self.spec.pass_style = "explicit"
                return
            if self.pass_style == "auto":
                self._note(f"{self.label} refused an explicit pass; passes are implied from now on")
                # Remembered for the rest of the match, not only this game.
                self.pass_style = self.spec.pass_style = "implied"
                return
            raise Forfeit(self.label, f"refused 'play {colour} pass': {reply}")
        ok, reply = self.send(f"play {colour} {move}", 30.0)
        if not ok:
            raise Forfeit(self.label, f"refused the legal move 'play {colour} {move}': {reply}")

    def close(self) -> None:
        """Asks the engine to quit, then makes sure it has."""
        if self.process.poll() is None:
            try:
                self.send("quit", 2.0)
            except EngineFailure:
                pass
        try:
            self.process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(timeout=2.0)
        for stream in (self.process.stdin, self.process.stdout, self._stderr_file):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


@dataclass
class MoveTimes:
    """Wall and CPU times of one engine's genmove replies (forced passes left out)."""

    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    overruns: int = 0

    def add(self, seconds: float, cpu: float | None, budget_ms: int, margin_ms: int) -> None:
        self.times.append(seconds)
        if cpu is not None:
            self.cpu.append(cpu)
        if budget_ms > 0 and seconds * 1000 > budget_ms + margin_ms:
            self.overruns += 1

    def summary(self) -> str:
        if not self.times:
            return "no moves"
        text = (f"wall mean {statistics.fmean(self.times):.3f} s, max {max(self.times):.3f} s "
                f"over {len(self.times)} moves, {self.overruns} overruns")
        if self.cpu:
            text += f"; CPU mean {statistics.fmean(self.cpu):.3f} s, max {max(self.cpu):.3f} s"
        return text


@dataclass
class GameResult:
    """One finished game, from engine 1's point of view in `points1`."""

    number: int
    opening: str
    black: str
    white: str
    result: str
    discs: str
    points1: float
    reason: str
    seconds: float
    plies: int
    moves: list[str]
    times: dict[str, list[float]]
    cpu_times: dict[str, list[float]]


def check_engine_scores(engines, score: str) -> str:
    """Asks each engine that knows final_score for it: a mismatch means the dialogue lost sync."""
    notes = []
    for engine in engines:
        if engine.command("known_command final_score").lower() != "true":
            continue
        ok, reply = engine.send("final_score", 30.0)
        if not ok or reply.upper() != score.upper():
            notes.append(f"{engine.label} says final_score {reply!r}")
    if notes:
        return "end of game; " + ", ".join(notes) + f" (arbiter {score})"
    return "end of game"


def parse_position(position: str) -> tuple[int, int, int]:
    """Black discs, white discs and empties from the arbiter's position string."""
    board = position.split()[0]
    return board.count("X"), board.count("O"), board.count("-")


def wof_score(black: int, white: int, empty: int) -> int:
    """The final disc difference for black, empties to the winner (the WOF rule)."""
    if black > white:
        return black - white + empty
    if white > black:
        return black - white - empty
    return 0


def format_score(difference: int) -> str:
    if difference > 0:
        return f"B+{difference}"
    if difference < 0:
        return f"W+{-difference}"
    return "0"


class Match:
    """Runs the games and keeps the tallies."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.specs = [
            EngineSpec(args.name1, shlex.split(args.engine1), args.setup1, args.movetime1,
                       args.timeout1, args.clock1, args.pass1),
            EngineSpec(args.name2, shlex.split(args.engine2), args.setup2, args.movetime2,
                       args.timeout2, args.clock2, args.pass2),
        ]
        self.arbiter_command = shlex.split(args.arbiter)
        self.openings = load_openings(args.openings) if args.openings else OPENINGS
        self.times = {spec.label: MoveTimes() for spec in self.specs}
        self.results: list[GameResult] = []
        self.log_dir = Path(args.log_dir) if args.log_dir else None
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)

    def schedule(self) -> list[tuple[str, str, int]]:
        """(opening label, moves, index of engine playing black) for every game."""
        games = []
        for number in range(self.args.games):
            label, moves = self.openings[(number // 2) % len(self.openings)]
            games.append((label, moves, number % 2))
        return games

    def check_openings(self) -> None:
        """Every opening must be legal from the start; stop before any game otherwise."""
        arbiter = self.start_arbiter(None)
        try:
            for label, moves in self.openings:
                arbiter.command("clear_board")
                for ply, move in enumerate(moves.split()):
                    ok, reply = arbiter.send(f"play {COLOURS[ply % 2]} {move}", 10.0)
                    if not ok:
                        sys.exit(f"opening {label} ({moves}): ply {ply + 1} '{move}' is illegal: {reply}")
        finally:
            arbiter.close()

    def start_arbiter(self, log: IO[str] | None) -> Engine:
        spec = EngineSpec("arbiter", self.arbiter_command, [], 0, 30.0, "off", "explicit")
        arbiter = Engine(spec, log, None, 30.0)
        arbiter.command("set_game othello")
        return arbiter

    def run(self) -> None:
        self.check_openings()
        jsonl = open(self.args.jsonl, "a", encoding="utf-8") if self.args.jsonl else None
        try:
            for number, (label, moves, black_index) in enumerate(self.schedule(), start=1):
                result = self.play_game(number, label, moves, black_index)
                self.results.append(result)
                print(self.game_line(result), flush=True)
                if jsonl is not None:
                    jsonl.write(json.dumps(result.__dict__) + "\n")
                    jsonl.flush()
        finally:
            if jsonl is not None:
                jsonl.close()
        self.print_summary()

    def play_game(self, number: int, label: str, opening: str, black_index: int) -> GameResult:
        specs = self.specs
        seat = {"black": specs[black_index], "white": specs[1 - black_index]}
        log = None
        if self.log_dir is not None:
            log = open(self.log_dir / f"game-{number:03d}.log", "w", encoding="utf-8")
            log.write(f"game {number}, opening {label} ({opening}), black {seat['black'].label}, "
                      f"white {seat['white'].label}\n")
        started = time.monotonic()
        engines: dict[str, Engine] = {}
        arbiter = self.start_arbiter(log)
        moves: list[str] = []
        times: dict[str, list[float]] = {spec.label: [] for spec in specs}
        cpu_times: dict[str, list[float]] = {spec.label: [] for spec in specs}
        reason = "end of game"
        loser: str | None = None
        try:
            for colour in COLOURS:
                stderr_path = None
                if self.log_dir is not None:
                    stderr_path = self.log_dir / f"game-{number:03d}-{seat[colour].label}.stderr"
                engines[colour] = Engine(seat[colour], log, stderr_path, self.args.startup_timeout)
            for engine in engines.values():
                engine.start_game()
            for ply, move in enumerate(opening.split()):
                colour = COLOURS[ply % 2]
                arbiter.command(f"play {colour} {move}")
                for engine in engines.values():
                    engine.tell(colour, move)
                moves.append(move)
            while True:
                legal = arbiter.command("legal_moves").split()
                if not legal:
                    reason = check_engine_scores(engines.values(),
                                                 arbiter.command("final_score"))
                    break
                colour = arbiter.command("side_to_move").lower()
                mover = engines[colour]
                other = engines["white" if colour == "black" else "black"]
                move, seconds, cpu = mover.genmove(colour)
                forced_pass = legal == ["pass"]
                if move == "resign":
                    raise Forfeit(mover.label, f"{colour} resigned")
                if move not in legal:
                    raise Forfeit(mover.label, f"illegal move '{move}' by {colour} "
                                               f"(legal: {' '.join(legal)})")
                if not forced_pass:
                    self.times[mover.label].add(seconds, cpu, mover.spec.movetime_ms,
                                                self.args.overrun_ms)
                    times[mover.label].append(round(seconds, 4))
                    if cpu is not None:
                        cpu_times[mover.label].append(round(cpu, 3))
                arbiter.command(f"play {colour} {move}")
                other.tell(colour, move)
                moves.append(move)
        except EngineFailure as failure:
            if failure.engine is arbiter:
                raise
            loser, reason = failure.engine.label, failure.reason
        except Forfeit as forfeit:
            loser, reason = forfeit.loser, forfeit.reason
        finally:
            for engine in engines.values():
                engine.close()
        elapsed = time.monotonic() - started
        if loser is None:
            score = arbiter.command("final_score")
            black, white, empty = parse_position(arbiter.command("position"))
            difference = wof_score(black, white, empty)
            if format_score(difference) != score:
                reason = f"arbiter final_score {score} disagrees with discs {black}-{white}"
            discs = f"{black}-{white}"
            result = score
            black_points = 1.0 if difference > 0 else 0.0 if difference < 0 else 0.5
        else:
            black_points = 0.0 if seat["black"].label == loser else 1.0
            result = "B+forfeit" if black_points == 1.0 else "W+forfeit"
            discs = "-"
        arbiter.close()
        points1 = black_points if black_index == 0 else 1.0 - black_points
        if log is not None:
            log.write(f"result {result} ({discs}), {reason}\n")
            log.close()
        return GameResult(number, label, seat["black"].label, seat["white"].label, result, discs,
                          points1, reason, round(elapsed, 1), len(moves), moves, times, cpu_times)

    def game_line(self, result: GameResult) -> str:
        first = self.specs[0].label
        return (f"game {result.number:3d}  opening {result.opening}  black {result.black:<10} "
                f"white {result.white:<10} {result.result:<10} discs {result.discs:<6} "
                f"{first} {result.points1:g}  {result.seconds:6.1f} s  {result.reason}")

    def print_summary(self) -> None:
        first, second = (spec.label for spec in self.specs)
        wins = sum(1 for r in self.results if r.points1 == 1.0)
        draws = sum(1 for r in self.results if r.points1 == 0.5)
        losses = sum(1 for r in self.results if r.points1 == 0.0)
        print()
        print(f"{first} vs {second}: +{wins} ={draws} -{losses} in {len(self.results)} games")
        if self.results:
            print(f"score {100 * (wins + draws / 2) / len(self.results):.1f}%  "
                  f"{elo_text(wins, draws, losses)}")
        for spec in self.specs:
            budget = f"{spec.movetime_ms} ms budget" if spec.movetime_ms else "no budget"
            print(f"time per move, {spec.label} ({budget}): {self.times[spec.label].summary()}")


def elo(score: float) -> float:
    """Elo difference for an expected score in (0, 1) under the logistic model."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """Elo estimate and its 95% interval (see the module docstring); infinite at 0% or 100%."""
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2
                + losses * score ** 2) / games
    error = 1.96 * math.sqrt(variance / games)

    def bounded(value: float) -> float:
        if value <= 0.0:
            return -math.inf
        if value >= 1.0:
            return math.inf
        return elo(value)

    return bounded(score), bounded(score - error), bounded(score + error)


def elo_text(wins: int, draws: int, losses: int) -> str:
    estimate, low, high = elo_interval(wins, draws, losses)
    if math.isinf(estimate):
        # All games won (or all lost): the one-sided exact bound on the score.
        bound = elo(0.025 ** (1 / (wins + draws + losses)))
        if estimate > 0:
            return f"Elo +inf (all games won; 95% lower bound {bound:+.0f})"
        return f"Elo -inf (all games lost; 95% upper bound {-bound:+.0f})"
    estimate += 0.0  # no "-0"
    interval = f"95% interval {low:+.0f} .. {high:+.0f}"
    if math.isinf(low) or math.isinf(high):
        return f"Elo {estimate:+.0f} ({interval})"
    return f"Elo {estimate:+.0f} +- {(high - low) / 2:.0f} ({interval})"


def load_openings(path: str) -> list[tuple[str, str]]:
    """Openings from a file: one per line, 'label: moves' or just moves; '#' starts a comment."""
    openings = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        label, _, moves = line.rpartition(":")
        openings.append((label.strip() or f"L{number}", " ".join(moves.lower().split())))
    if not openings:
        sys.exit(f"{path}: no openings")
    return openings


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Play an Othello match between two GTP engines, refereed by Tabula.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  scripts/gtp_match.py --engine1 'target/release/tabula' "
               "--setup1 'set_option threads 1' --movetime1 1000 \\\n"
               "      --engine2 '/usr/games/gtp-rhino -l 5' --name2 rhino --timeout2 300")
    for n in ("1", "2"):
        group = parser.add_argument_group(f"engine {n}")
        group.add_argument(f"--engine{n}", required=True, metavar="COMMAND",
                           help="command line that starts the engine (split like a shell)")
        group.add_argument(f"--name{n}", default=f"engine{n}", help="label in the results")
        group.add_argument(f"--setup{n}", action="append", default=[], metavar="GTP",
                           help="a GTP command sent at the start of each game (repeatable); "
                                "it must succeed")
        group.add_argument(f"--movetime{n}", type=int, default=0, metavar="MS",
                           help="per-move time in ms, for the clock commands and overrun "
                                "counts (0: none)")
        group.add_argument(f"--timeout{n}", type=float, default=60.0, metavar="SECONDS",
                           help="a genmove reply slower than this loses the game (default 60)")
        group.add_argument(f"--clock{n}", choices=("auto", "on", "off"), default="auto",
                           help="send time_settings/time_left: auto if the engine knows them")
        group.add_argument(f"--pass{n}", choices=("auto", "explicit", "implied"), default="auto",
                           help="how to tell this engine of the opponent's pass")
    parser.add_argument("--games", type=int, default=2 * len(OPENINGS),
                        help=f"number of games (default {2 * len(OPENINGS)}: every opening "
                             "with both colours)")
    parser.add_argument("--openings", metavar="FILE",
                        help="openings file, one per line: 'label: f5 d6 c3' (default: built-in)")
    parser.add_argument("--arbiter", default=str(REPO / "target" / "release" / "tabula"),
                        metavar="COMMAND", help="the Tabula binary that referees")
    parser.add_argument("--overrun-ms", type=int, default=100, metavar="MS",
                        help="slack over the per-move time before a move counts as an overrun")
    parser.add_argument("--startup-timeout", type=float, default=120.0, metavar="SECONDS",
                        help="time allowed for an engine's first reply (default 120)")
    parser.add_argument("--log-dir", metavar="DIR",
                        help="write each game's GTP traffic and the engines' stderr there")
    parser.add_argument("--jsonl", metavar="FILE", help="append one JSON line per game")
    args = parser.parse_args(argv)
    if args.name1 == args.name2:
        parser.error("the two engines need different --name1/--name2")
    if args.games < 1:
        parser.error("--games must be at least 1")
    return args


def main() -> None:
    args = parse_arguments()
    if not os.path.exists(shlex.split(args.arbiter)[0]):
        sys.exit(f"arbiter not found: {args.arbiter} (build Tabula with cargo build --release)")
    Match(args).run()


if __name__ == "__main__":
    main()
