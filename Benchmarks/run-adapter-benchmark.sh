#!/usr/bin/env bash
# Builds the adapter benchmark and stratus-mock in release mode and runs it: Stratus's Dropbox,
# Drive and OneDrive adapters against their mocks (each in a process of its own) next to the curl tool
# (raw, and with the same hash and fsync guarantees) and the official Python SDKs (Dropbox's small
# files with the mock's write contention on and off, Stratus's batch and single commits, and rclone's
# batch mode through a CONNECT proxy); its S3 adapter against moto and against Ceph's RADOS Gateway
# (a single-node cluster), and its WebDAV adapter against Apache, next to rclone (and curl for WebDAV). One Markdown table on standard output, with each
# client's CPU time and the server's.
#
#   Benchmarks/run-adapter-benchmark.sh                                      # 1 GiB, 1,000 files, 100,000 changes
#   Benchmarks/run-adapter-benchmark.sh --size-mib 256 --feed-entries 20000  # shorter
#   Benchmarks/run-adapter-benchmark.sh --providers s3,webdav                # only some rows
#   Benchmarks/run-adapter-benchmark.sh --providers s3,s3-ceph --size-mib 256 # S3 on moto and on Ceph
#   Benchmarks/run-adapter-benchmark.sh --providers dropbox --dropbox-contention on
#   Benchmarks/run-adapter-benchmark.sh --help                               # every option
#
# Needs curl, python3, openssl, sha256sum/md5sum/sync (coreutils) on PATH and about 5 × --size-mib
# free in TMPDIR; rclone for the Dropbox rclone lines and the S3 and WebDAV rows, moto for S3
# (`pip install 'moto[server]'`), ceph-mon, ceph-osd, radosgw and ceph-common for S3 on Ceph (its data
# in memory: about 6 × --size-mib), apache2 for WebDAV (Debian packages; .ci/run installs them). The
# SDKs live in the virtualenvs .build-sdk-venv (dropbox), .build-drive-venv
# (google-api-python-client) and .build-onedrive-venv (msgraph-sdk, as the OneDrive SDK check makes
# it), made here when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${STRATUS_BENCH_SCRATCH:-.build-adapterbench}"

make_venv() {
    local venv=$1; shift
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv" >&2
        "$venv/bin/pip" install -q "$@" >&2
    fi
}
make_venv .build-sdk-venv dropbox
make_venv .build-drive-venv google-api-python-client google-auth google-auth-httplib2
make_venv .build-onedrive-venv msgraph-sdk

# Build output goes to standard error so that standard output carries only the report.
swift build -c release --traits Development --scratch-path "$scratch" --product stratus-mock >&2
swift build -c release --traits Development --scratch-path "$scratch" --product stratus-adapter-benchmark >&2
bin_path="$(swift build -c release --traits Development --scratch-path "$scratch" --show-bin-path)"
exec "$bin_path/stratus-adapter-benchmark" --mock "$bin_path/stratus-mock" \
    --dropbox-python "$PWD/.build-sdk-venv/bin/python" --drive-python "$PWD/.build-drive-venv/bin/python" \
    --onedrive-python "$PWD/.build-onedrive-venv/bin/python" "$@"
