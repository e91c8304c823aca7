#!/usr/bin/env bash
# Resolves, builds and runs Examples/Consumer, an app that depends on every Stratus library product
# with the Development trait off, and fails when SwiftPM resolved any package beyond the expected
# set: the libraries' own dependencies and theirs, no Hummingbird, SwiftNIO or ArgumentParser.
set -euo pipefail
cd "$(dirname "$0")"

expected="GRDB.swift swift-async-algorithms swift-collections swift-distributed-tracing swift-log swift-metrics swift-service-lifecycle"
scratch=.build-consumer
started=$SECONDS
mkdir -p "$scratch"
log="$scratch/check.log"
# Runs a SwiftPM command quietly; on failure shows its errors (or the end of its output) and stops.
quietly() {
    "$@" >"$log" 2>&1 || { grep -m 40 -A 12 "error:" "$log" >&2 || tail -40 "$log" >&2; exit 1; }
}
quietly swift package --scratch-path "$scratch" resolve
resolved="$(ls "$scratch/checkouts" | sort | tr '\n' ' ' | sed 's/ $//')"
echo "consumer resolved $(wc -w <<<"$resolved") packages in $((SECONDS - started)) s: $resolved"
if [ "$resolved" != "$expected" ]; then
    echo "error: expected exactly: $expected" >&2
    exit 1
fi
started=$SECONDS
quietly swift build --scratch-path "$scratch"
echo "consumer built in $((SECONDS - started)) s"
"$(swift build --scratch-path "$scratch" --show-bin-path)/Consumer"
