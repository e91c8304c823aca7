#!/usr/bin/env bash
# Checks that a program importing only the core module `Stratus` links no OpenSSL (libcrypto,
# libssl) and no libcurl: builds the `stratus-core-only` example and reads its dynamic
# dependencies, direct (readelf -d) and transitive (ldd).
# Usage: Scripts/check-core-links.sh [scratch path]   (default .build)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${1:-.build}"

swift build --scratch-path "$scratch" --product stratus-core-only >&2
binary="$(swift build --scratch-path "$scratch" --show-bin-path)/stratus-core-only"

"$binary" >/dev/null
direct="$(readelf -d "$binary" | grep NEEDED || true)"
transitive="$(ldd "$binary")"
if grep -Eq 'libcrypto|libssl|libcurl' <<<"$direct$transitive"; then
    echo "FAIL: stratus-core-only (imports only Stratus) links OpenSSL or libcurl:" >&2
    grep -E 'libcrypto|libssl|libcurl' <<<"$direct"$'\n'"$transitive" >&2
    exit 1
fi
echo "OK: stratus-core-only links no libcrypto, libssl or libcurl; its direct dependencies:"
sed 's/^ */  /' <<<"$direct"
