"""Reading the folders that `tabula match` runs leave (`scripts/match/gomoku-sprt.sh` and the like).

A run folder holds `openings.txt`, the openings in the order the match used them, and
`games.jsonl`, one game record a line, whose `opening` field numbers the openings from 1.
"""
import json
import os


def is_run(folder):
    """Whether `folder` holds both files of a run."""
    return all(os.path.isfile(os.path.join(folder, name)) for name in ("openings.txt", "games.jsonl"))


def games(folder):
    """Each game record of the run in `folder` with its opening's text, or `None` for the opening
    when the record names none that `openings.txt` holds."""
    with open(os.path.join(folder, "openings.txt")) as handle:
        openings = [line.strip() for line in handle if line.strip() and not line.startswith("#")]
    with open(os.path.join(folder, "games.jsonl")) as handle:
        for line in handle:
            record = json.loads(line)
            index = record.get("opening")
            opening = openings[index - 1] if index and 1 <= index <= len(openings) else None
            yield opening, record
