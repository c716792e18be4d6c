#!/usr/bin/env python3
"""Runs an engine and logs the traffic between it and whatever drives it (a GUI such as Quarry).

Usage: gtp-log-proxy.py LOG_FILE ENGINE [ARGUMENTS...]

A '{pid}' in LOG_FILE becomes the proxy's process id, so that two engines started with the same
command line (Quarry's engine against engine) log to two files. Every line the driver sends is logged as '> line', every line the engine writes as '< line', with
the time since the start, in one file (appended to); the engine's stderr goes to LOG_FILE.stderr.
"""
import os
import subprocess
import sys
import threading
import time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    log_path = sys.argv[1].replace("{pid}", str(os.getpid()))
    engine = sys.argv[2:]
    start = time.monotonic()
    lock = threading.Lock()
    log = open(log_path, "a", buffering=1)
    stderr = open(log_path + ".stderr", "a")
    process = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=stderr, bufsize=0)

    def write(mark, raw):
        text = raw.decode("utf-8", "replace").rstrip("\n")
        with lock:
            log.write(f"[{time.monotonic() - start:8.3f}] {mark} {text}\n")

    def engine_to_driver():
        for raw in iter(process.stdout.readline, b""):
            write("<", raw)
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()

    reader = threading.Thread(target=engine_to_driver)
    reader.start()
    for raw in iter(sys.stdin.buffer.readline, b""):
        write(">", raw)
        try:
            process.stdin.write(raw)
            process.stdin.flush()
        except BrokenPipeError:
            break
    try:
        process.stdin.close()
    except BrokenPipeError:
        pass
    code = process.wait()
    reader.join()
    write("exit", str(code).encode())
    return code


if __name__ == "__main__":
    sys.exit(main())
