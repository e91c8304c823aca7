#!/usr/bin/env bash
# Fuzzes every decoder of server answers (the adapters, the HTTP client's Content-Range reader)
# and client requests (the mocks) with libFuzzer, SECONDS each (default 60), and prints one line
# per decoder. Crashing inputs are kept in .build-fuzz/crashes/<decoder>/ (to be turned into
# regression tests); the corpus grows in .build-fuzz/corpus/<decoder>/.
#
#   bash Fuzz/run-fuzz.sh [SECONDS] [DECODER...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
mkdir -p .build-fuzz
if ! swift build --package-path Fuzz --scratch-path .build-fuzz --product DecoderFuzzer \
    -Xswiftc -sanitize=fuzzer,address >.build-fuzz/build.log 2>&1; then
    grep -E 'error' .build-fuzz/build.log || tail -20 .build-fuzz/build.log
    echo "The fuzz harness did not build (whole log: .build-fuzz/build.log)." >&2
    exit 1
fi
fuzzer=.build-fuzz/debug/DecoderFuzzer
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    targets=(dropboxErrorBody dropboxMetadata dropboxResultHeader dropboxChangeToken dropboxMockArguments
             driveJSON driveErrorBody driveRangeHeader driveChangeToken driveMockRange driveMockMultipart
             s3XML s3ChangeToken contentRange oauthTokenAnswer serverText mockControlHost mockRouteGlob)
fi
status=0
printf '%-22s %12s %8s %8s %s\n' decoder executions cov features result
for target in "${targets[@]}"; do
    corpus=".build-fuzz/corpus/$target"
    crashes=".build-fuzz/crashes/$target"
    mkdir -p "$corpus" "$crashes"
    log=".build-fuzz/$target.log"
    if STRATUS_FUZZ_TARGET="$target" "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
        -max_len=65536 -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1; then
        result=clean
    else
        result="CRASH (see $log, input in $crashes)"
        status=1
    fi
    line=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    executions=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$line")
    coverage=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$line")
    features=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$line")
    printf '%-22s %12s %8s %8s %s\n' "$target" "${executions:-?}" "${coverage:-?}" "${features:-?}" "$result"
done
exit "$status"
