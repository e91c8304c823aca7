# Sourced by the SDK checks: builds stratus-mock, starts one mode of it on a free loopback port
# and sets `base`, `token`, `refresh` and `data` (its storage folder); the mock stops and its
# files go when the calling script exits. SCRATCH_PATH picks the SwiftPM scratch folder
# (default .build).
#
#   source Mocks/sdk-checks/start-mock.sh
#   start_mock dropbox --tls
#   ...
#   restart_mock    # SIGTERM, then the same mode again on the same data folder
#
# The mock is given --data-dir, so the Dropbox and Drive mocks save their state there and
# a restarted one carries on where the last stopped (with a new access token).

start_mock() {
    local scratch="${SCRATCH_PATH:-.build}"
    swift build --traits Development --scratch-path "$scratch" --product stratus-mock
    mock_binary="$scratch/debug/stratus-mock"
    mock_args=("$@")
    mock_log=$(mktemp)
    data=$(mktemp -d)
    trap 'kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true; rm -rf "$mock_log" "$data"' EXIT
    launch_mock
}

# Stops the mock with SIGTERM (it saves its state and exits) and starts it again on the same
# data folder; sets `base`, `token` and `refresh` anew.
restart_mock() {
    kill -TERM "$mock_pid"
    wait "$mock_pid" || true
    launch_mock
}

launch_mock() {
    : >"$mock_log"
    "$mock_binary" "${mock_args[@]}" --port 0 --data-dir "$data" >"$mock_log" 2>&1 &
    mock_pid=$!
    for _ in $(seq 1 100); do
        grep -q "listening on" "$mock_log" && break
        sleep 0.1
    done
    base=$(grep -m1 "listening on" "$mock_log" | awk '{print $NF}')
    token=$(grep -m1 "access token:" "$mock_log" | awk '{print $3}')
    refresh=$(grep -m1 "refresh token:" "$mock_log" | awk '{print $3}')
    if [ -z "$base" ] || [ -z "$token" ]; then
        echo "stratus-mock did not start:" >&2
        cat "$mock_log" >&2
        exit 1
    fi
}
