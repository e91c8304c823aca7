#!/usr/bin/env bash
# Starts stratus-mock onedrive --tls under Graph's host name and drives it with rclone (Debian's,
# or any on PATH), whose Graph URL is fixed at https://graph.microsoft.com: rclone reaches the
# mock through a loopback CONNECT proxy (connect_proxy.py) that sends only graph.microsoft.com:443
# to it, and trusts the mock's CA through SSL_CERT_FILE. Download and upload-session URLs are on
# 127.0.0.1, which Go never proxies. Covers a simple upload, an upload session of ten 320 KiB
# fragments and its overwrite, modification times (fileSystemInfo, also on an empty file), a
# server-side move (PATCH) and copy (POST /copy and its monitor), downloads, QuickXorHash checks
# (rclone's business mode; its personal mode asks for SHA-1, which Graph no longer reports) and a
# delete. Exits non-zero on any mismatch. SCRATCH_PATH picks the SwiftPM scratch folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v rclone >/dev/null || { echo "rclone is not installed (apt-get install rclone)" >&2; exit 1; }
source Mocks/sdk-checks/start-mock.sh

start_mock onedrive --tls --tls-host graph.microsoft.com

work=$(mktemp -d)
proxy_pid=""
trap 'kill "$proxy_pid" 2>/dev/null || true; kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true; rm -rf "$mock_log" "$data" "$work"' EXIT
python3 Mocks/sdk-checks/connect_proxy.py graph.microsoft.com "${base##*:}" "$work/proxy.port" &
proxy_pid=$!
for _ in $(seq 1 50); do [ -s "$work/proxy.port" ] && break; sleep 0.1; done
drive_id=$(grep -m1 "drive id:" "$mock_log" | awk '{print $3}')

for type in personal business; do
    cat >"$work/$type.conf" <<CONF
[od]
type = onedrive
token = {"access_token":"$token","token_type":"Bearer","refresh_token":"unused","expiry":"2099-01-01T00:00:00Z"}
drive_id = $drive_id
drive_type = $type
CONF
done
export HTTPS_PROXY="http://127.0.0.1:$(cat "$work/proxy.port")" SSL_CERT_FILE="$data/tls/ca.pem"
export RCLONE_CONFIG="$work/personal.conf"
rc() { timeout 120 rclone --retries 1 --low-level-retries 1 "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir "$work/local"
head -c 3276800 /dev/urandom >"$work/local/big.bin"
echo "small file from rclone" >"$work/local/small.txt"
: >"$work/local/empty.txt"
touch -d "2020-01-02 03:04:05 UTC" "$work/local/big.bin" "$work/local/small.txt"
touch -d "2019-05-06 07:08:09 UTC" "$work/local/empty.txt"

rc copy "$work/local" od:rclone --onedrive-chunk-size 320k
listing=$(rc lsl od:rclone)
echo "$listing"
grep -q "3276800 2020-01-02 03:04:05.000000000 big.bin" <<<"$listing" || fail "big.bin: size or time"
grep -q "0 2019-05-06 07:08:09.000000000 empty.txt" <<<"$listing" || fail "empty.txt: size or time"
fragments=$(curl -sf --noproxy "*" --cacert "$data/tls/ca.pem" -H "Authorization: Bearer $(grep -m1 'control token:' "$mock_log" | awk '{print $3}')" \
    "$base/__stratus/requests" | python3 -c 'import json,sys; print(sum(1 for r in json.load(sys.stdin)["requests"] if r["method"] == "PUT" and r["path"].startswith("/upload/")))')
[ "$fragments" -ge 10 ] || fail "the upload session took $fragments fragments, not 10"
echo "upload session: $fragments fragments of 320 KiB"

# Overwrite through a new upload session, then check content and hashes both ways.
head -c 1000000 /dev/urandom >>"$work/local/big.bin"
touch -d "2021-03-04 05:06:07 UTC" "$work/local/big.bin"
rc copy "$work/local" od:rclone --onedrive-chunk-size 320k
RCLONE_CONFIG="$work/business.conf" rc check "$work/local" od:rclone
rc cat od:rclone/big.bin | cmp - "$work/local/big.bin" || fail "big.bin downloads differently"
[ "$(RCLONE_CONFIG="$work/business.conf" rc hashsum quickxor od:rclone/big.bin | awk '{print $1}')" = \
    "$(rclone hashsum quickxor "$work/local/big.bin" | awk '{print $1}')" ] || fail "quickXorHash of big.bin"

# Server-side move (PATCH) and copy (POST /copy, then its monitor).
rc moveto od:rclone/small.txt od:rclone/sub/moved.txt -v 2>&1 | tee "$work/move.log"
grep -q "Moved (server-side)" "$work/move.log" || fail "the move was not server-side"
rc copyto od:rclone/big.bin od:rclone/sub/copy.bin -v 2>&1 | tee "$work/copy.log"
grep -q "server-side copy" "$work/copy.log" || fail "the copy was not server-side"
rc cat od:rclone/sub/copy.bin | cmp - "$work/local/big.bin" || fail "the copy differs"
rc cat od:rclone/sub/moved.txt | cmp - "$work/local/small.txt" || fail "the moved file differs"
rc deletefile od:rclone/sub/moved.txt
[ "$(rc lsf -R od:rclone | sort | tr '\n' ' ')" = "big.bin empty.txt sub/ sub/copy.bin " ] || fail "the final listing"
echo "OK: $(rclone version | head -1) against the mock"
