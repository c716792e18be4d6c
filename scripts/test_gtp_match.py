#!/usr/bin/env python3
"""Tests for gtp_match.py: the scoring helpers, and whole games against faulty stand-in engines.

The game tests need the release binary (cargo build --release) as arbiter and opponent; they are
skipped without it. Run with: python3 scripts/test_gtp_match.py
"""

from __future__ import annotations

import math
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gtp_match  # noqa: E402

TABULA = gtp_match.REPO / "target" / "release" / "tabula"

# A stand-in engine: accepts every command, and answers genmove as MODE says.
FAKE_ENGINE = textwrap.dedent("""
    import sys, time
    mode = sys.argv[1]
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "genmove":
            if mode == "hang":
                time.sleep(60)
            if mode == "crash":
                sys.exit(3)
            reply = {"illegal": "= a1", "resign": "= resign"}[mode]
        elif words[0] == "known_command":
            reply = "= false"
        elif words[0] == "play" and words[-1] == "pass" and mode == "illegal":
            reply = "? syntax error"
        else:
            reply = "="
        print(reply + "\\n", flush=True)
        if words[0] == "quit":
            break
""")


class Scoring(unittest.TestCase):
    def test_elo_of_an_even_score_is_zero(self):
        self.assertAlmostEqual(gtp_match.elo(0.5), 0.0)

    def test_elo_of_three_quarters(self):
        self.assertAlmostEqual(gtp_match.elo(0.75), 400 * math.log10(3))

    def test_interval_is_symmetric_at_an_even_score(self):
        estimate, low, high = gtp_match.elo_interval(5, 0, 5)
        self.assertAlmostEqual(estimate, 0.0)
        self.assertAlmostEqual(low, -high)
        # p = 0.5, s = 0.5, SE = 0.5 / sqrt(10)
        self.assertAlmostEqual(high, gtp_match.elo(0.5 + 1.96 * 0.5 / math.sqrt(10)))

    def test_a_clean_sweep_has_only_a_bound(self):
        self.assertIn("95% lower bound +277", gtp_match.elo_text(20, 0, 0))

    def test_empties_go_to_the_winner(self):
        self.assertEqual(gtp_match.wof_score(30, 20, 14), 24)
        self.assertEqual(gtp_match.wof_score(20, 30, 14), -24)
        self.assertEqual(gtp_match.wof_score(31, 31, 2), 0)
        self.assertEqual(gtp_match.format_score(-24), "W+24")

    def test_position_counts(self):
        self.assertEqual(gtp_match.parse_position("XXOO" + "-" * 60 + " X"), (2, 2, 60))

    def test_openings_file(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
            file.write("# comment\ntiger: F5 d6 c3 d3 c4\n\nf5 f6 e6\n")
        openings = gtp_match.load_openings(file.name)
        self.assertEqual(openings, [("tiger", "f5 d6 c3 d3 c4"), ("L4", "f5 f6 e6")])


@unittest.skipUnless(TABULA.exists(), "needs target/release/tabula")
class FaultyEngines(unittest.TestCase):
    """Each fault loses the game for the faulty engine, whichever colour it has."""

    def play(self, mode: str) -> list[gtp_match.GameResult]:
        directory = Path(tempfile.mkdtemp())
        fake = directory / "fake.py"
        fake.write_text(FAKE_ENGINE)
        args = gtp_match.parse_arguments([
            "--engine1", str(TABULA), "--name1", "tabula", "--setup1", "set_option depth 1",
            "--engine2", f"{sys.executable} {fake} {mode}", "--name2", "fake",
            "--timeout2", "2", "--games", "2", "--arbiter", str(TABULA),
            "--log-dir", str(directory / "logs")])
        match = gtp_match.Match(args)
        for number, (label, moves, black) in enumerate(match.schedule(), start=1):
            match.results.append(match.play_game(number, label, moves, black))
        return match.results

    def check(self, mode: str, reason: str) -> None:
        results = self.play(mode)
        self.assertEqual([result.points1 for result in results], [1.0, 1.0])
        for result in results:
            self.assertIn(reason, result.reason)
            self.assertTrue(result.result.endswith("+forfeit"))

    def test_an_illegal_move_forfeits(self):
        self.check("illegal", "illegal move 'a1'")

    def test_a_hung_engine_loses(self):
        self.check("hang", "no reply to 'genmove")

    def test_a_crash_loses(self):
        self.check("crash", "crashed during 'genmove")

    def test_resignation(self):
        self.check("resign", "resigned")


if __name__ == "__main__":
    unittest.main()
