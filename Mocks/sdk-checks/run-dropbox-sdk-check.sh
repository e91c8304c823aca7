#!/usr/bin/env bash
# Starts stratus-mock dropbox over HTTPS (--tls) on a free loopback port and drives it with the
# official Dropbox Python SDK (installed from PyPI into a virtualenv under .build-sdk-venv). Exits non-zero when
# any call does not behave as against Dropbox.
set -euo pipefail
cd "$(dirname "$0")/../.."

swift build --product stratus-mock
venv=.build-sdk-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q dropbox

log=$(mktemp)
data=$(mktemp -d)
.build/debug/stratus-mock dropbox --port 0 --tls --data-dir "$data" >"$log" 2>&1 &
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

# requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE override the CA a session is given; unset them
# so the SDK's own ca_certs option decides, as on a machine without them.
env -u REQUESTS_CA_BUNDLE -u CURL_CA_BUNDLE "$venv/bin/python" Mocks/sdk-checks/dropbox_sdk_check.py "$base" "$token" "$refresh" "$data/tls/ca.pem"
