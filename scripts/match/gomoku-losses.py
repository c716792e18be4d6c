#!/usr/bin/env python3
"""Replays the games Tabula lost in a c-gomoku-cli match and finds where its deep search sees them turn.

    scripts/match/gomoku-losses.py TABULA OUT [--rule freestyle|standard|renju] [--movetime MS]
                             [--name Tabula] [--jobs J] [--last N]
    scripts/match/gomoku-losses.py --reclassify OUT      (again from OUT/losses.jsonl, no search)

OUT is a match directory with games.sgf (scripts/match/rapfi-gomocup.sh, or c-gomoku-cli's -sgf).
For every game the engine named --name lost, each position where it was to move (after the
opening; with --last N only its last N, which can hide the turn, so the classification needs
them all), and the position after each of its moves, is searched by `tabula analyze` for
--movetime ms (default 4000, several times the match's move time) on one thread, --jobs
positions at a time (default 2). The script prints, move by move, the deep search's score and
best move next to the move played and the score of the position after it (the opponent to move).

Each loss is classified at its turn: the first of the engine's moves after which the opponent
has a proven win (the deep search of the position after the move proves one), or after which the
engine's next deep search scores the game lost:
  drift     the deep score before the turning move was -500 or below, after a fall of 300 points
            or more over the last three moves or after three moves all at -500 or below: a slow
            positional loss (evaluation);
  tactics   else, the opponent's proven win after the turning move is a short threat sequence (at
            most 15 plies): a missed threat sequence;
  horizon   else (a longer forced win, or a loss the deep search only scores heuristically at
            first): the danger lay beyond the search's depth when the move was played.
The game records, moves in Tabula's notation (rows from the bottom), go to OUT/losses.txt, the
analysis to OUT/losses.jsonl.
"""
import json
import re
import subprocess
import sys

LOST = -2000
# A deep score at or below this before the turn, after a fall, is a slow positional loss.
DRIFT = -500


def sgf_games(path, size_hint=15):
    text = open(path).read()
    games = []
    for body in re.findall(r"\(;(.*?)\)", text, re.S):
        size = re.search(r"SZ\[(\d+)\]", body)
        size = int(size.group(1)) if size else size_hint
        black = re.search(r"PB\[([^\]]*)\]", body).group(1)
        white = re.search(r"PW\[([^\]]*)\]", body).group(1)
        result = re.search(r"RE\[([^\]]*)\]", body).group(1)
        moves = []
        for colour, point, comment in re.findall(r";([BW])\[([a-z]{2})\](?:C\[([^\]]*)\])?", body):
            x, y = ord(point[0]) - ord("a"), ord(point[1]) - ord("a")
            # The engines' moves carry their thinking time (C[123ms]); the opening's do not.
            engine_move = re.fullmatch(r"\d+ms", comment) is not None
            moves.append((colour, f"{chr(ord('a') + x)}{size - y}", engine_move))
        games.append({"size": size, "black": black, "white": white, "result": result,
                      "moves": moves})
    return games


def analyze(tabula, rule, size, lines, movetime, jobs):
    command = [tabula, "analyze", "--game", "gomoku", "-o", f"rule={rule}", "-o", f"size={size}",
               "--movetime", str(movetime), "--jobs", str(jobs), "--threads", "1", "--quiet"]
    done = subprocess.run(command, input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True)
    records = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            records[record["index"]] = record
    return [records.get(index) for index in range(len(lines))]


def points(score):
    if not score:
        return None
    kind = score.get("kind")
    if kind == "win":
        return 10000 - score.get("plies", 0)
    if kind == "loss":
        return -10000 + score.get("plies", 0)
    return score.get("value")

SHORT_WIN = 15


def classify(entries, plies):
    """entries: (played, deep record before the move, record of the position after it) per move of
    the engine; plies: the move numbers. Returns (kind, explanation); see the module's text."""
    scores = [points(before.get("score")) for _, before, _ in entries]
    turn = None
    for index, (_, before, after) in enumerate(entries):
        if (after.get("score") or {}).get("kind") == "win":
            turn = index
            break
        if index + 1 < len(entries) and scores[index + 1] is not None and scores[index + 1] <= LOST:
            turn = index
            break
    if turn is None:
        return "unclear", "the deep search never sees the loss before the end"
    played, before, after = entries[turn]
    win = after.get("score") or {}
    proven = win.get("kind") == "win"
    length = win.get("plies") if proven else None
    previous = [score for score in scores[max(0, turn - 3):turn + 1] if score is not None]
    already_bad = len(previous) >= 2 and previous[-1] <= DRIFT \
        and (max(previous) - previous[-1] >= 300 or max(previous) <= DRIFT)
    if already_bad:
        kind = "drift"
    elif proven and length <= SHORT_WIN:
        kind = "tactics"
    else:
        kind = "horizon"
    why = (f"the game turns with {played} at ply {plies[turn]} (deep score before it "
           f"{scores[turn]}, deep best {before.get('best')}); after it the opponent "
           + (f"has a proven win in {length} plies" if proven else
              f"scores {points(win)} and the engine's next deep search {scores[turn + 1]}")
           + f"; deep scores of the moves before: {previous}")
    return kind, why


def reclassify(out):
    """Classifies again from OUT/losses.jsonl, without searching."""
    games = {}
    for line in open(f"{out}/losses.jsonl"):
        entry = json.loads(line)
        games.setdefault(entry["game"], []).append(entry)
    counts = {"tactics": 0, "horizon": 0, "drift": 0, "unclear": 0}
    for number, entries in games.items():
        kind, why = classify([(entry["played"], entry["deep"], entry["after"]) for entry in entries],
                             [entry["ply"] + 1 for entry in entries])
        counts[kind] += 1
        print(f"game {number}: {kind}: {why}")
    print("losses by kind: " + ", ".join(f"{key} {value}" for key, value in counts.items()))


def main():
    args = sys.argv[1:]
    options = {"--rule": "freestyle", "--movetime": "4000", "--name": "Tabula", "--jobs": "2",
               "--last": "0"}
    for key in list(options):
        if key in args:
            at = args.index(key)
            options[key] = args[at + 1]
            del args[at:at + 2]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    tabula, out = args
    if tabula == "--reclassify":
        reclassify(out)
        return
    name = options["--name"]
    records = open(f"{out}/losses.txt", "w")
    dump = open(f"{out}/losses.jsonl", "w")
    counts = {"tactics": 0, "horizon": 0, "drift": 0, "unclear": 0}
    for number, game in enumerate(sgf_games(f"{out}/games.sgf"), 1):
        colour = "B" if game["black"] == name else "W"
        if not game["moves"] or game["result"][:1] in ("", "0", colour) or \
                not game["result"][:1] in ("B", "W"):
            continue
        moves = [move for _, move, _ in game["moves"]]
        records.write(f"game {number}: {game['black']} (black) vs {game['white']} "
                      f"(white), {game['result']}: {' '.join(moves)}\n")
        turns = [index for index, (who, _, engine_move) in enumerate(game["moves"])
                 if who == colour and engine_move]
        if int(options["--last"]) > 0:
            turns = turns[-int(options["--last"]):]
        lines = [" ".join(moves[:index]) for index in turns]
        # The position after each of the engine's moves too: does the opponent have a win there?
        after = [" ".join(moves[:index + 1]) for index in turns]
        results = analyze(tabula, options["--rule"], game["size"], lines + after,
                          int(options["--movetime"]), int(options["--jobs"]))
        before_results, after_results = results[:len(turns)], results[len(turns):]
        print(f"\ngame {number}: {name} {'black' if colour == 'B' else 'white'}, "
              f"lost ({game['result']}), {len(moves)} moves")
        scores = []
        for turn, index in enumerate(turns):
            record = before_results[turn] or {}
            reply = after_results[turn] or {}
            score = points(record.get("score"))
            their = points(reply.get("score"))
            scores.append(score)
            dump.write(json.dumps({"game": number, "ply": index, "played": moves[index],
                                   "deep": record, "after": reply}) + "\n")
            print(f"  ply {index + 1:>3} played {moves[index]:>4}  deep best "
                  f"{record.get('best', '-'):>4} score {score if score is not None else '-':>7}"
                  f" depth {record.get('depth', '-')}  | opponent after it: "
                  f"{their if their is not None else '-'}")
        kind, why = classify([(moves[index], before_results[turn] or {}, after_results[turn] or {})
                              for turn, index in enumerate(turns)], [index + 1 for index in turns])
        counts[kind] += 1
        print(f"  -> {kind}: {why}")
        records.write(f"  {kind}: {why}\n")
    print("\nlosses by kind: " + ", ".join(f"{key} {value}" for key, value in counts.items()))
    records.write("losses by kind: " + ", ".join(f"{key} {value}" for key, value in counts.items())
                  + "\n")


if __name__ == "__main__":
    main()
