#!/usr/bin/env python3
"""Replays the games Tabula lost in a c-gomoku-cli match and finds where its deep search sees them turn.

    scripts/gomoku-losses.py TABULA OUT [--rule freestyle|standard|renju] [--movetime MS]
                             [--name Tabula] [--jobs J]

OUT is a match directory with games.sgf (scripts/match-rapfi-gomocup.sh, or c-gomoku-cli's -sgf).
For every game the engine named --name lost, each position where it was to move (after the
opening) is searched by `tabula analyze` for --movetime ms (default 4000, several times the match's
move time), one job per core. The script prints, move by move, the deep search's score and best
move next to the move played, and the first move where the deep search sees the game turn: the
first position where it scores the game as lost (a proven loss, or below -2000 points, the
evaluation's range of won threats), so the mistake is the engine's move before it.

Each loss is then classified by what the deep search saw:
  tactics   the turn is a proven loss by a threat sequence the opponent starts at once (the
            position after the mistake holds a forced win found by the threat search), or the
            deep search picked another move at the mistake: a missed threat sequence;
  horizon   the turn is a heuristic score (no proof), proven lost only later: the search saw the
            danger too late, beyond its depth;
  drift     no single turn: the deep scores fall over several moves (by at least 300 points over
            the last three of the engine's moves before the turn) with no move where the deep
            search preferred another one: a slow positional loss (evaluation).
The game records, moves in Tabula's notation (rows from the bottom), go to OUT/losses.txt, the
analysis to OUT/losses.jsonl.
"""
import json
import re
import subprocess
import sys

LOST = -2000


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
        for colour, point, comment in re.findall(r";([BW])\[([a-z]{2})\](C\[[^\]]*\])?", body):
            x, y = ord(point[0]) - ord("a"), ord(point[1]) - ord("a")
            moves.append((colour, f"{chr(ord('a') + x)}{size - y}", bool(comment)))
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


def main():
    args = sys.argv[1:]
    options = {"--rule": "freestyle", "--movetime": "4000", "--name": "Tabula", "--jobs": "2"}
    for key in list(options):
        if key in args:
            at = args.index(key)
            options[key] = args[at + 1]
            del args[at:at + 2]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    tabula, out = args
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
        turn_at = next((turn for turn, score in enumerate(scores)
                        if score is not None and score <= LOST), None)
        if turn_at is None:
            kind = "unclear"
            why = "the deep search never scores the game lost before the end"
        else:
            mistake = turn_at - 1
            proven = (before_results[turn_at] or {}).get("score", {}).get("kind") == "loss"
            reply = after_results[mistake] if mistake >= 0 else None
            reply_win = bool(reply) and reply.get("score", {}).get("kind") == "win"
            other_move = mistake >= 0 and (before_results[mistake] or {}).get("best") != \
                moves[turns[mistake]]
            earlier = [score for score in scores[max(0, turn_at - 3):turn_at] if score is not None]
            fall = (earlier[0] - earlier[-1]) if len(earlier) >= 2 else 0
            if proven and (reply_win or other_move):
                kind = "tactics"
            elif not proven and (other_move or reply_win):
                kind = "horizon"
            elif fall >= 300 or not other_move:
                kind = "drift"
            else:
                kind = "unclear"
            why = (f"deep search sees the loss at ply {turns[turn_at] + 1} "
                   f"({'proven' if proven else 'heuristic'}); mistake "
                   f"{moves[turns[mistake]] + ' at ply ' + str(turns[mistake] + 1) if mistake >= 0 else 'in the opening'}"
                   f", deep best there {(before_results[mistake] or {}).get('best') if mistake >= 0 else '-'}"
                   f", opponent's proven win after it: {reply_win}, fall before: {fall}")
        counts[kind] += 1
        print(f"  -> {kind}: {why}")
        records.write(f"  {kind}: {why}\n")
    print("\nlosses by kind: " + ", ".join(f"{key} {value}" for key, value in counts.items()))
    records.write("losses by kind: " + ", ".join(f"{key} {value}" for key, value in counts.items())
                  + "\n")


if __name__ == "__main__":
    main()
