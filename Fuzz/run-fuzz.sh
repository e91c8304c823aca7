#!/usr/bin/env bash
# Fuzzes every decoder of server answers (the adapters, the HTTP client's Content-Range reader),
# client requests (the mocks) and documents from a server or disk (XML, WebDAV PROPFIND answers,
# JSONReader, sync record documents, the key-value document) with libFuzzer, SECONDS each
# (default 60), and prints one line per target with its number of executions. Crashing inputs
# are kept in .build-fuzz/crashes/<target>/ (to be turned into regression tests); the corpus
# grows in .build-fuzz/corpus/<target>/, seeded from Fuzz/Corpus/<target>/ where there is one.
#
#   bash Fuzz/run-fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
decoders=(dropboxErrorBody dropboxMetadata dropboxResultHeader dropboxChangeToken dropboxMockArguments
          driveJSON driveErrorBody driveRangeHeader driveChangeToken driveMockRange driveMockMultipart
          s3XML s3ChangeToken contentRange oauthTokenAnswer serverText mockControlHost mockRouteGlob)
parsers=(xmlTree webdavMultistatus jsonReader recordDocument keyValueDocument)
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    targets=("${decoders[@]}" "${parsers[@]}")
fi

# The program that fuzzes a target: ParserFuzzer for the document readers, DecoderFuzzer
# (which links the mock servers) for the rest.
program() {
    local target
    for target in "${parsers[@]}"; do
        if [ "$target" = "$1" ]; then
            echo ParserFuzzer
            return
        fi
    done
    echo DecoderFuzzer
}

mkdir -p .build-fuzz
needed=$(for target in "${targets[@]}"; do program "$target"; done | sort -u)
for product in $needed; do
    if ! swift build --package-path Fuzz --scratch-path .build-fuzz --product "$product" \
        -Xswiftc -sanitize=fuzzer,address >".build-fuzz/build-$product.log" 2>&1; then
        grep -E 'error' ".build-fuzz/build-$product.log" || tail -20 ".build-fuzz/build-$product.log"
        echo "The fuzz harness $product did not build (whole log: .build-fuzz/build-$product.log)." >&2
        exit 1
    fi
done

status=0
printf '%-22s %12s %8s %8s %s\n' target executions cov features result
for target in "${targets[@]}"; do
    corpus=".build-fuzz/corpus/$target"
    crashes=".build-fuzz/crashes/$target"
    mkdir -p "$corpus" "$crashes"
    seeds=()
    if [ -d "Fuzz/Corpus/$target" ]; then seeds=("Fuzz/Corpus/$target"); fi
    log=".build-fuzz/$target.log"
    # A crash, a hang (10 s for one input) or more than 2 GiB of memory is a finding. Swift's
    # own crash handler is off: ASan reports the crash.
    if SWIFT_BACKTRACE=enable=no STRATUS_FUZZ_TARGET="$target" ".build-fuzz/debug/$(program "$target")" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$crashes/" "$corpus" "${seeds[@]}" >"$log" 2>&1; then
        result=clean
    else
        result="FINDING (see $log, input in $crashes)"
        status=1
    fi
    executions=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
    line=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    coverage=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$line")
    features=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$line")
    printf '%-22s %12s %8s %8s %s\n' "$target" "${executions:-?}" "${coverage:-?}" "${features:-?}" "$result"
done
exit "$status"
