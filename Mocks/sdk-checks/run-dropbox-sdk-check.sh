#!/usr/bin/env bash
# Starts stratus-mock dropbox over HTTPS (--tls) on a free loopback port and drives it with the
# official Dropbox Python SDK (installed from PyPI into a virtualenv under .build-sdk-venv). Exits
# non-zero when any call does not behave as against Dropbox. SCRATCH_PATH picks the SwiftPM
# scratch folder (default .build).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Mocks/sdk-checks/start-mock.sh

venv=.build-sdk-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q dropbox

start_mock dropbox --tls

# requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE override the CA a session is given; unset them
# so the SDK's own ca_certs option decides, as on a machine without them.
env -u REQUESTS_CA_BUNDLE -u CURL_CA_BUNDLE "$venv/bin/python" Mocks/sdk-checks/dropbox_sdk_check.py "$base" "$token" "$refresh" "$data/tls/ca.pem"
