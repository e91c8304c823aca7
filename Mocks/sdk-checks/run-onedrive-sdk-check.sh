#!/usr/bin/env bash
# Starts stratus-mock onedrive --tls on free loopback ports and drives it with Microsoft's
# official Graph SDK for Python (msgraph-sdk from PyPI, in a virtualenv under
# .build-onedrive-venv): app folder, small and large uploads (LargeFileUploadTask, one of six
# fragments over an existing file with a fileSystemInfo), downloads through /content's redirect,
# rename and move (PATCH), copy with its monitor, delta with paging and a 410 resync, versions
# and restore, an itemNotFound, and a 429 the SDK's retry handler rides out. Exits non-zero on
# any mismatch.
# SCRATCH_PATH picks the SwiftPM scratch folder (default .build).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Mocks/sdk-checks/start-mock.sh

venv=.build-onedrive-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q msgraph-sdk

start_mock onedrive --tls

# The SDK talks to Graph as localhost; the mock's download and upload URLs say 127.0.0.1, a
# host the token provider does not send the token to.
graph="${base/127.0.0.1/localhost}"
control=$(grep -m1 "control token:" "$mock_log" | awk '{print $3}')
"$venv/bin/python" Mocks/sdk-checks/onedrive_sdk_check.py "$graph" "$token" "$data/tls/ca.pem" "$control"
