"""One search of a Gomocup (Piskvork) engine on a position, for the Gomoku bench scripts.

Imported by scripts/bench/gomoku-rapfi.py and scripts/bench/gomoku-move-quality.py.
"""
import re
import subprocess

# A win in N plies (Rapfi's `M N`) scores MATE - N, more than any heuristic score.
MATE = 20000


def board_lines(moves):
    """Piskvork BOARD lines: 1 for the side to move's stones, 2 for the opponent's."""
    lines = []
    for index, (x, y) in enumerate(moves):
        own = (len(moves) - index) % 2 == 0
        lines.append(f"{x},{y},{1 if own else 2}")
    return lines


def search(binary, rule, size, moves, milliseconds):
    """Runs `binary` on the position after `moves` (x, y from 0) with one thread and
    `milliseconds` for the move; returns (move as (x, y) or None, the lines it printed before)."""
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, bufsize=1)
    commands = [f"START {size}", f"INFO rule {rule}", "INFO thread_num 1",
                f"INFO timeout_turn {milliseconds}", "INFO timeout_match 1000000000",
                "INFO time_left 1000000000", "INFO max_memory 268435456", "BOARD",
                *board_lines(moves), "DONE"]
    engine.stdin.write("".join(line + "\n" for line in commands))
    engine.stdin.flush()
    move, printed = None, []
    while True:
        line = engine.stdout.readline()
        if not line:
            break
        line = line.strip()
        if re.fullmatch(r"\d+,\d+", line):
            x, y = line.split(",")
            move = (int(x), int(y))
            break
        printed.append(line)
    try:
        engine.stdin.write("END\n")
        engine.stdin.flush()
    except BrokenPipeError:
        pass
    try:
        engine.wait(timeout=30)
    except subprocess.TimeoutExpired:
        engine.kill()
    return move, printed


def last_eval(printed):
    """The `Eval` of the last of `printed` lines that has one (Rapfi's MESSAGE lines), for the side
    to move: (score, proven), a proven win or loss in N plies scoring ±(MATE - N); (None, False)
    when no line has one."""
    value, proven = None, False
    for line in printed:
        found = re.search(r"\| Eval ([+-]?)(M?)(\d+) \|", line)
        if found:
            sign, mate, number = found.groups()
            value = MATE - int(number) if mate else int(number)
            value, proven = (-value if sign == "-" else value), bool(mate)
    return value, proven
