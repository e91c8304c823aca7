#!/usr/bin/env bash
# Starts stratus-mock drive on a free loopback port and drives it with Google's official Python
# client (google-api-python-client and google-auth from PyPI, in a virtualenv under
# .build-drive-venv). Exits non-zero when any call does not behave as against Google Drive.
# Then restarts the mock on the same data folder and checks that the files, their revisions and
# the change feed's page token survived.
# SCRATCH_PATH picks the SwiftPM scratch folder (default .build).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Mocks/sdk-checks/start-mock.sh

venv=.build-drive-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q google-api-python-client google-auth

start_mock drive

summary="$data/sdk-check-summary.json"
"$venv/bin/python" Mocks/sdk-checks/drive_sdk_check.py "$base" "$token" "$refresh" "$summary"

# A restart on the same data folder: what the check left (ids, contents, revisions, its last
# page token) is still there, and later changes show on the old token.
restart_mock
"$venv/bin/python" Mocks/sdk-checks/drive_sdk_check.py --after-restart "$base" "$token" "$summary"
