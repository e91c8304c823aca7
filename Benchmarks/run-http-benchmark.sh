#!/usr/bin/env bash
# Builds the HTTP benchmark in release mode and runs it: a loopback Hummingbird server, then
# StratusHTTP, the curl tool and URLSession (FoundationNetworking) on the same workloads, one
# table on standard output. Arguments pass through to the benchmark:
#
#   Benchmarks/run-http-benchmark.sh                               # 1 GiB transfers, 2,000 GETs
#   Benchmarks/run-http-benchmark.sh --size-mib 64 --requests 200  # quick smoke run
#   Benchmarks/run-http-benchmark.sh --help                        # every option
#
# Needs the curl tool on PATH and about twice --size-mib free in TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-release
# Build output goes to standard error so that standard output carries only the report.
swift build -c release --traits Development --scratch-path "$scratch" --product stratus-http-benchmark >&2
bin_path="$(swift build -c release --traits Development --scratch-path "$scratch" --show-bin-path)"
exec "$bin_path/stratus-http-benchmark" "$@"
