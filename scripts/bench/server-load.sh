#!/usr/bin/env bash
# Heavier loopback load on `tabula serve` than `cargo test` runs: the load test of
# tests/server_load.rs with SCALE times its 32 clients per wave (engine sessions, rooms, floods,
# garbage, half-open connections, clients gone mid-search), two waves, threads and resident memory
# measured before and after. Prints the test's figures.
#
#     scripts/bench/server-load.sh [SCALE]      # SCALE 4 by default: 128 clients per wave
set -euo pipefail
cd "$(dirname "$0")/../.."
scale="${1:-4}"
TABULA_LOAD_SCALE="$scale" cargo test --test server_load -- --ignored --nocapture 2>&1 |
    grep -E '^(load|wave|threads|resident)|test result|panicked'
