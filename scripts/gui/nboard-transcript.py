#!/usr/bin/env python3
"""Plays the '>' lines of an NBoard session file (tests/data/nboard-session.txt) to an engine and
prints a transcript: '>' for each line sent, '<' for each line the engine wrote, with the time.

Usage: nboard-transcript.py SESSION_FILE [--pause SECONDS] [--cwd DIR] -- ENGINE [ARGUMENTS...]
e.g.   scripts/gui/nboard-transcript.py tests/data/nboard-session.txt -- target/release/tabula
       scripts/gui/nboard-transcript.py tests/data/nboard-session.txt --cwd /path/to/edax -- ./bin/lEdax-x86-64-v3 -nboard

Each line waits --pause seconds (default 2) before the next, so that a `ping` arrives after the
search it follows has ended, as a GUI's would; stderr lines are shown as '<stderr'.
"""
import argparse
import subprocess
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("session")
    parser.add_argument("--pause", type=float, default=2.0)
    parser.add_argument("--cwd", default=None)
    arguments = sys.argv[1:]
    if "--" not in arguments or arguments.index("--") == len(arguments) - 1:
        parser.error("no engine command after --")
    split = arguments.index("--")
    options = parser.parse_args(arguments[:split])
    engine = arguments[split + 1:]
    sent = [line[2:].rstrip("\n") for line in open(options.session) if line.startswith("> ")]
    start = time.monotonic()
    process = subprocess.Popen(engine, cwd=options.cwd, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    lock = threading.Lock()

    def show(mark, text):
        with lock:
            print(f"[{time.monotonic() - start:7.2f}s] {mark} {text}", flush=True)

    def pump(stream, mark):
        for line in stream:
            show(mark, line.rstrip("\n"))

    readers = [threading.Thread(target=pump, args=(process.stdout, "<")),
               threading.Thread(target=pump, args=(process.stderr, "<stderr"))]
    for reader in readers:
        reader.start()
    for line in sent:
        show(">", line)
        process.stdin.write(line + "\n")
        process.stdin.flush()
        time.sleep(options.pause)
    process.stdin.close()
    code = process.wait(timeout=60)
    for reader in readers:
        reader.join()
    show("exit", code)


if __name__ == "__main__":
    sys.exit(main())
