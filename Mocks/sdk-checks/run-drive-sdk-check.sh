#!/usr/bin/env bash
# Starts stratus-mock drive on a free loopback port and drives it with Google's official Python
# client (google-api-python-client and google-auth from PyPI, in a virtualenv under
# .build-drive-venv). Exits non-zero when any call does not behave as against Google Drive.
# SCRATCH_PATH picks the SwiftPM scratch folder (default .build).
set -euo pipefail
cd "$(dirname "$0")/../.."

scratch="${SCRATCH_PATH:-.build}"
swift build --scratch-path "$scratch" --product stratus-mock
venv=.build-drive-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q google-api-python-client google-auth

log=$(mktemp)
data=$(mktemp -d)
"$scratch/debug/stratus-mock" drive --port 0 --data-dir "$data" >"$log" 2>&1 &
mock=$!
trap 'kill "$mock" 2>/dev/null || true; wait "$mock" 2>/dev/null || true; rm -rf "$log" "$data"' EXIT

for _ in $(seq 1 100); do
    grep -q "listening on" "$log" && break
    sleep 0.1
done
base=$(grep -m1 "listening on" "$log" | awk '{print $NF}')
token=$(grep -m1 "access token:" "$log" | awk '{print $3}')
refresh=$(grep -m1 "refresh token:" "$log" | awk '{print $3}')
if [ -z "$base" ] || [ -z "$token" ]; then
    echo "stratus-mock did not start:" >&2
    cat "$log" >&2
    exit 1
fi

"$venv/bin/python" Mocks/sdk-checks/drive_sdk_check.py "$base" "$token" "$refresh"
