#!/usr/bin/env bash
# Starts stratus-mock nextcloud on a free loopback port and syncs a folder through it with the
# official Nextcloud desktop client's command-line tool, nextcloudcmd (Debian's
# nextcloud-desktop-cmd), and with Stratus's webdav remote (vendor nextcloud):
#
#   1. nextcloudcmd uploads a folder of small files and three large ones (12, 20 and 30 MiB) with
#      nested folders; the mock refuses any PUT above 10 MiB, so the large files must go up in
#      chunks (/remote.php/dav/uploads/), and the client is held to 10 MB chunks;
#   2. a second nextcloudcmd syncs it down into an empty folder: every byte is compared;
#   3. both run again: no file may be transferred (ETags stable, nothing re-downloaded);
#   4. the first folder changes (a small and a large file rewritten, a file and a folder renamed,
#      a file deleted, one added) and is synced up, the second syncs down: compared; both run
#      again: nothing transferred;
#   5. a chunked upload is interrupted (the mock answers one chunk with 503) and the next run
#      resumes it: the client lists the upload folder and sends only the missing chunk;
#   6. Stratus lists and reads every file (`stratus ls`, `stratus get`): every byte is compared;
#   7. Stratus writes (a new small file, a new large file, an overwrite of a small and of a large
#      one) and both nextcloudcmd folders sync down: every byte is compared with what was written;
#   8. both run once more: again nothing is transferred.
#
# Exits non-zero, saying what differed, at the first difference. SCRATCH_PATH picks the SwiftPM
# scratch folder (default .build).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v nextcloudcmd >/dev/null; then
    echo "nextcloudcmd is not installed (apt-get install nextcloud-desktop-cmd)" >&2
    exit 1
fi
nextcloudcmd --version 2>/dev/null | head -1

source Mocks/sdk-checks/start-mock.sh
scratch="${SCRATCH_PATH:-.build}"
swift build --traits Development --scratch-path "$scratch" --product stratus
stratus_binary="$scratch/debug/stratus"
start_mock nextcloud --largest-single-put 10485760

work=$(mktemp -d)
trap 'kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true; rm -rf "$mock_log" "$data" "$work"' EXIT
started=$SECONDS
password_file="$work/password"
(umask 077 && grep -m1 "password:" "$mock_log" | awk '{print $2}' >"$password_file")
control_token=$(grep -m1 "control token:" "$mock_log" | awk '{print $3}')
user=stratus
mkdir -p "$work/home" "$work/logs"
# nextcloudcmd -n reads the login from $HOME/.netrc: the password stays off its command line.
(umask 077 && printf 'machine 127.0.0.1\nlogin %s\npassword %s\n' "$user" "$(cat "$password_file")" >"$work/home/.netrc")
# Stratus keeps its change journal and lock files in .stratus/ on the remote. The clients sync it
# like any folder (nextcloudcmd's --unsyncedfolders would leave it out, but makes each run wait
# 100 s on its own locked journal), and the comparisons leave it out: it is not user data.

fail() {
    echo "FAILED: $*" >&2
    exit 1
}

step() {
    printf '[%3ds] %s\n' "$((SECONDS - started))" "$*"
}

# The mock's request log, from entry $1 on, summed up by method, route and status; with $2 set,
# only the requests that moved file content (GET, PUT, MOVE, MKCOL, DELETE of files or uploads).
requests() {
    curl -sf -H "Authorization: Bearer $control_token" "$base/__stratus/requests" |
        python3 -c '
import collections, json, os, sys
start, transfers_only = int(sys.argv[1]), sys.argv[2] == "transfers"
counts = collections.Counter()
for r in json.load(sys.stdin)["requests"][start:]:
    path = r["path"].rstrip("/")
    if path.startswith("/remote.php/dav/uploads/"):
        route = "uploads/.file" if path.endswith("/.file") else ("uploads/<id>/<chunk>" if path.count("/") > 5 else "uploads/<id>")
    elif path.startswith("/remote.php/dav/files/"):
        route = "files"
    elif path.startswith("/remote.php/dav/versions/"):
        route = "versions"
    else:
        route = path
    if transfers_only and (r["method"] not in ("GET", "PUT", "MOVE", "MKCOL", "DELETE") or route.startswith("/")):
        continue
    if os.environ.get("NEXTCLOUD_CHECK_PATHS"):
        route += " " + path
    counts[(r["method"], route, r["status"])] += 1
for (method, route, status), n in sorted(counts.items()):
    print(f"    {n:4d}  {method:9s} {route:22s} {status}")
' "$1" "${2:-all}"
}

request_count() {
    curl -sf -H "Authorization: Bearer $control_token" "$base/__stratus/requests" |
        python3 -c 'import json, sys; print(len(json.load(sys.stdin)["requests"]))'
}

# nextcloudcmd with a throwaway HOME, no display, 10 MB chunks at most (so a large file is
# several chunks). $1 names the run, $2 is the folder.
sync_folder() {
    local log="$work/logs/$1.log"
    if ! env HOME="$work/home" QT_QPA_PLATFORM=offscreen \
        OWNCLOUD_CHUNK_SIZE=10000000 OWNCLOUD_MAX_CHUNK_SIZE=10000000 OWNCLOUD_MIN_CHUNK_SIZE=1000000 \
        nextcloudcmd --non-interactive -n \
        "$2" "$base" >"$log" 2>&1; then
        tail -40 "$log" >&2
        fail "nextcloudcmd ($1) exited non-zero; the end of its log is above"
    fi
    if grep -E "status OCC::SyncFileItem::(NormalError|FatalError|SoftError|BlacklistedError|DetailError)" "$log" >&2; then
        fail "nextcloudcmd ($1) reported the errors above"
    fi
}

# nextcloudcmd when a fault makes the run fail: it must exit non-zero.
sync_folder_failing() {
    local log="$work/logs/$1.log"
    if env HOME="$work/home" QT_QPA_PLATFORM=offscreen \
        OWNCLOUD_CHUNK_SIZE=10000000 OWNCLOUD_MAX_CHUNK_SIZE=10000000 OWNCLOUD_MIN_CHUNK_SIZE=1000000 \
        nextcloudcmd --non-interactive -n "$2" "$base" >"$log" 2>&1; then
        fail "nextcloudcmd ($1) succeeded although the mock failed one of its chunks"
    fi
}

# Adds a fault rule on the mock (JSON, see FaultRule).
add_fault() {
    curl -sf -X POST -H "Authorization: Bearer $control_token" -H "Content-Type: application/json" \
        -d "$1" "$base/__stratus/faults" >/dev/null || fail "the mock refused the fault rule $1"
}

# Compares two folders byte for byte, leaving out the client's journal and Stratus's folder.
same_tree() {
    if ! diff -r -x '.sync_*' -x '.stratus' -x '.nextcloudsync.log' "$1" "$2" >&2; then
        fail "$3: the folders differ (above)"
    fi
    local files
    files=$(find "$1" -type f ! -name '.sync_*' ! -path '*/.stratus/*' | wc -l)
    step "  $3: $files files identical"
}

# Asserts that nothing was transferred since request $1.
no_transfers_since() {
    local moved
    moved=$(requests "$1" transfers)
    if [ -n "$moved" ]; then
        echo "$moved" >&2
        fail "$2: nextcloudcmd transferred files it already had (above)"
    fi
    step "  $2: no file transferred"
}

# --- the folder ------------------------------------------------------------------------------
up="$work/up"
mkdir -p "$up/docs/letters" "$up/photos/2024/summer" "$up/empty folder" "$up/spaced name ü"
for i in $(seq 1 40); do
    case $((i % 4)) in
        0) folder="$up" ;;
        1) folder="$up/docs" ;;
        2) folder="$up/docs/letters" ;;
        *) folder="$up/photos/2024/summer" ;;
    esac
    head -c $(((i * 7919) % 200000)) /dev/urandom >"$folder/file-$i.bin"
done
: >"$up/empty.txt"
echo "hello from nextcloudcmd" >"$up/spaced name ü/naïve résumé.txt"
head -c $((12 * 1024 * 1024)) /dev/urandom >"$up/large-12.bin"
head -c $((20 * 1024 * 1024)) /dev/urandom >"$up/docs/large-20.bin"
head -c $((30 * 1024 * 1024)) /dev/urandom >"$up/photos/2024/large-30.bin"
step "folder: $(find "$up" -type f | wc -l) files, $(du -sm "$up" | cut -f1) MiB, in $(find "$up" -mindepth 1 -type d | wc -l) folders"

# --- 1. up with nextcloudcmd ------------------------------------------------------------------
mark=$(request_count)
step "1. nextcloudcmd uploads the folder to $base"
sync_folder upload "$up"
requests "$mark"
assembled=$(NEXTCLOUD_CHECK_PATHS= requests "$mark" | awk '$2 == "MOVE" && $3 == "uploads/.file" && $4 == 201 {print $1}')
[ "${assembled:-0}" -ge 3 ] || fail "the three large files were not uploaded in chunks (MOVE .file: ${assembled:-0})"
step "  the 3 large files went up in chunks"

# --- 2. down into an empty folder -------------------------------------------------------------
down="$work/down"
mkdir -p "$down"
step "2. a second nextcloudcmd syncs it into an empty folder"
mark=$(request_count)
sync_folder download "$down"
requests "$mark" transfers
same_tree "$up" "$down" "uploaded vs downloaded"

# --- 3. nothing to do -------------------------------------------------------------------------
step "3. both nextcloudcmd folders sync again"
mark=$(request_count)
sync_folder upload-again "$up"
sync_folder download-again "$down"
no_transfers_since "$mark" "second runs"

# --- 4. changes in the first folder -----------------------------------------------------------
step "4. the first folder changes; it syncs up, the second syncs down"
echo "rewritten by the first client" >"$up/docs/file-5.bin"
head -c $((14 * 1024 * 1024)) /dev/urandom >"$up/docs/large-20.bin"
mv "$up/file-4.bin" "$up/file-4-renamed.bin"
mv "$up/docs/letters" "$up/docs/letters-renamed"
rm "$up/photos/2024/summer/file-3.bin"
echo "added by the first client" >"$up/photos/added.txt"
mark=$(request_count)
sync_folder upload-changes "$up"
requests "$mark"
mark=$(request_count)
sync_folder download-changes "$down"
requests "$mark" transfers
same_tree "$up" "$down" "changed vs synced down"
mark=$(request_count)
sync_folder upload-changes-again "$up"
sync_folder download-changes-again "$down"
no_transfers_since "$mark" "runs after the changes"

# --- 5. an interrupted chunked upload is resumed -------------------------------------------------
step "5. a chunked upload fails at its third chunk (503 from the mock); the next run resumes it"
head -c $((25 * 1024 * 1024)) /dev/urandom >"$up/resumed-25.bin"
add_fault '{"route": "/remote.php/dav/uploads/*", "method": "PUT", "nth": 3, "times": 1, "fault": {"kind": "status", "status": 503}}'
mark=$(request_count)
sync_folder_failing upload-interrupted "$up"
sync_folder upload-resumed "$up"
requests "$mark"
resumed=$(requests "$mark" | awk '$2 == "PROPFIND" && $3 == "uploads/<id>" && $4 == 207 {print $1}')
[ "${resumed:-0}" -ge 1 ] || fail "the client did not list the upload folder to resume"
sent=$(requests "$mark" | awk '$2 == "PUT" && $3 == "uploads/<id>/<chunk>" && $4 == 201 {print $1}')
# 25 MiB in chunks of 10 MB: 3 chunks, each stored once (the one refused is sent again, no other).
[ "${sent:-0}" -eq 3 ] || fail "the resumed upload stored ${sent:-0} chunks, not 3: it did not resume"
step "  resumed: the client listed the upload folder and sent only the chunk that had failed"
mark=$(request_count)
sync_folder download-resumed "$down"
requests "$mark" transfers
same_tree "$up" "$down" "resumed upload vs synced down"

# --- 6. read with Stratus ---------------------------------------------------------------------
config="$work/remotes.json"
"$stratus_binary" remote add nc --config "$config" --type webdav --option "url=$base/remote.php/dav/files/$user/" \
    --option "user=$user" --option "password_file=$password_file" --option vendor=nextcloud >/dev/null
via_stratus="$work/via-stratus"
step "6. Stratus (webdav remote, vendor nextcloud) lists and reads every file"
listing="$work/stratus-ls.txt"
"$stratus_binary" ls --config "$config" nc: >"$listing" || fail "stratus ls failed"
count=0
while IFS=$'\t' read -r _ _ _ path; do
    case "$path" in .stratus/*) continue ;; esac
    mkdir -p "$(dirname "$via_stratus/$path")"
    "$stratus_binary" get --config "$config" "nc:$path" "$via_stratus/$path" >/dev/null ||
        fail "stratus get nc:$path failed"
    count=$((count + 1))
done <"$listing"
step "  stratus read $count files"
for folder in "$up"/*/ "$up"/*/*/ "$up"/*/*/*/; do
    # Stratus lists files; empty folders exist only for the clients.
    [ -d "$folder" ] && [ -z "$(ls -A "$folder")" ] && mkdir -p "$via_stratus/${folder#"$up"/}"
done
same_tree "$up" "$via_stratus" "uploaded vs read by Stratus"

# --- 7. write with Stratus, sync down with nextcloudcmd ---------------------------------------
step "7. Stratus writes; both nextcloudcmd folders sync down"
expected="$work/expected"
cp -r "$up" "$expected"
rm -f "$expected"/.sync_*
mkdir -p "$expected/from stratus"
echo "written by stratus put" >"$expected/from stratus/note.txt"
echo "overwritten by stratus" >"$expected/docs/file-1.bin"
writes=("from stratus/note.txt" docs/file-1.bin)
options=$("$stratus_binary" remote add x --type webdav --help-options 2>/dev/null || true)
if grep -q '^chunked_upload_above' <<<"$options"; then
    head -c $((24 * 1024 * 1024)) /dev/urandom >"$expected/from stratus/large-24.bin"
    head -c $((15 * 1024 * 1024)) /dev/urandom >"$expected/large-12.bin"
    writes+=("from stratus/large-24.bin" large-12.bin)
else
    step "  (this stratus has no Nextcloud chunked uploads: its large writes are left out)"
fi
mark=$(request_count)
for path in "${writes[@]}"; do
    "$stratus_binary" put --config "$config" "$expected/$path" "nc:$path" >/dev/null || fail "stratus put nc:$path failed"
done
requests "$mark" transfers
step "  nextcloudcmd syncs both folders"
mark=$(request_count)
sync_folder download-stratus-writes "$down"
sync_folder upload-folder-pulls "$up"
requests "$mark" transfers
same_tree "$expected" "$down" "Stratus's writes vs the second client's folder"
same_tree "$expected" "$up" "Stratus's writes vs the first client's folder"

# --- 8. nothing to do again -------------------------------------------------------------------
step "8. both nextcloudcmd folders sync once more"
mark=$(request_count)
sync_folder upload-third "$up"
sync_folder download-third "$down"
no_transfers_since "$mark" "third runs"

step "OK: nextcloudcmd and Stratus agree with the Nextcloud mock, byte for byte"
