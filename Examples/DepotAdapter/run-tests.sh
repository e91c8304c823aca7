#!/usr/bin/env bash
# Builds and tests the Depot example package against the Stratus checkout around it, in a
# build folder of its own (.build-example), as an outside package would.
set -euo pipefail
cd "$(dirname "$0")"

started=$(date +%s)
swift build --build-tests --scratch-path .build-example
built=$(date +%s)
swift test --skip-build --scratch-path .build-example
finished=$(date +%s)
echo "Depot example: build $((built - started)) s, tests $((finished - built)) s"
