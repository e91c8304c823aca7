#!/usr/bin/env bash
# Starts stratus-mock drive on a free loopback port and drives it with Google's official Python
# client (google-api-python-client and google-auth from PyPI, in a virtualenv under
# .build-drive-venv). Exits non-zero when any call does not behave as against Google Drive.
# SCRATCH_PATH picks the SwiftPM scratch folder (default .build).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Mocks/sdk-checks/start-mock.sh

venv=.build-drive-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q google-api-python-client google-auth

start_mock drive

"$venv/bin/python" Mocks/sdk-checks/drive_sdk_check.py "$base" "$token" "$refresh"
