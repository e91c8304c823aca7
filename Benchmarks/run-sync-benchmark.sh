#!/usr/bin/env bash
# Builds the StratusSync benchmark and stratus-mock in release mode and runs it: a first push of
# 10,000 records (1,000 with a 64 KiB file), a second device's first pull and an incremental sync
# of 100 changes, on `local` and on the Dropbox mock (a process of its own), next to direct
# uploads of the same items through the same service; then automatic sync: the propagation time
# of 200 saves from one device to another (p50, p95, max) and the cost while idle (requests per
# minute, CPU). Markdown tables on standard output.
#
#   Benchmarks/run-sync-benchmark.sh                                   # the full run
#   Benchmarks/run-sync-benchmark.sh --records 2000 --files 200        # shorter
#   Benchmarks/run-sync-benchmark.sh --remote local --remote dropbox --remote drive   # Drive's polling too
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${STRATUS_BENCH_SCRATCH:-.build-syncbench}"
swift build -c release --traits Development --scratch-path "$scratch" --product stratus-mock >&2
swift build -c release --traits Development --scratch-path "$scratch" --product stratus-sync-benchmark >&2
bin_path="$(swift build -c release --traits Development --scratch-path "$scratch" --show-bin-path)"
exec "$bin_path/stratus-sync-benchmark" --mock "$bin_path/stratus-mock" "$@"
