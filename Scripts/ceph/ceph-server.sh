#!/usr/bin/env bash
# A single-node Ceph for the S3 tests and the adapter benchmark: one monitor, one OSD on
# memstore (its data in memory) and the RADOS Gateway (S3, beast frontend), all on loopback,
# with cephx off, in a temporary folder of its own (mode 0700) that is removed at the end.
#
#   ceph-server.sh MON_PORT RGW_PORT ACCESS_KEY SECRET_KEY [MIN_PART_SIZE [STORE_BYTES]]
#
# Once the gateway answers, an S3 user with the given key exists and the gateway's port is the
# first line on stdout. Everything stops when stdin ends (the parent keeps the pipe open for
# its whole life, and the kernel closes it when the parent ends, however it ends), or on
# SIGTERM/SIGINT/SIGHUP. The daemons also get SIGKILL if this script dies without cleaning up
# (setpriv --pdeathsig), so no daemon outlives it.
#
# Ceph's daemons need explicit ports: the monitor and the gateway take the two given (the
# caller asks the OS for free ones), the OSD picks free ones in Ceph's range (6800-7300).
# Exit status 3 means a given port was taken meanwhile: pick others and start again.
# Any other failure exits 1 with the daemons' logs on stderr.
set -u

mon_port=${1:?MON_PORT}
rgw_port=${2:?RGW_PORT}
access_key=${3:?ACCESS_KEY}
secret_key=${4:?SECRET_KEY}
min_part_size=${5:-262144}
store_bytes=${6:-2147483648}

dir=$(mktemp -d "${TMPDIR:-/tmp}/stratus-ceph.XXXXXXXX") || exit 1
chmod 700 "$dir"
conf="$dir/ceph.conf"
pids=()

cleanup() {
    trap - EXIT TERM INT HUP
    if [ "${#pids[@]}" -gt 0 ]; then
        kill -TERM "${pids[@]}" 2>/dev/null
        for _ in $(seq 1 20); do
            alive=0
            for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
            [ "$alive" -eq 0 ] && break
            sleep 0.1
        done
        kill -KILL "${pids[@]}" 2>/dev/null
        wait 2>/dev/null
    fi
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' TERM INT HUP

# Prints the end of every log to stderr and exits with the given status.
fail() {
    local status=$1
    shift
    echo "ceph-server: $*" >&2
    for log in "$dir"/*.out "$dir"/log/*.log; do
        [ -s "$log" ] || continue
        echo "---- $(basename "$log") (last 30 lines)" >&2
        tail -n 30 "$log" >&2
    done
    exit "$status"
}

# Whether a daemon's log says its address was taken.
port_taken() {
    grep -qiE "address already in use|unable to bind|failed to bind" "$@" 2>/dev/null
}

# Starts a daemon in the foreground of a background job, killed with this script.
start() {
    local name=$1
    shift
    if command -v setpriv >/dev/null 2>&1; then
        setpriv --pdeathsig KILL -- "$@" </dev/null >"$dir/$name.out" 2>&1 &
    else
        "$@" </dev/null >"$dir/$name.out" 2>&1 &
    fi
    pids+=("$!")
}

fsid=$(cat /proc/sys/kernel/random/uuid)
osd_uuid=$(cat /proc/sys/kernel/random/uuid)
mkdir -p "$dir/run" "$dir/log" "$dir/mon/mon.a" "$dir/osd/osd.0" "$dir/rgw"
cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
mon initial members = a
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
auth allow insecure global id reclaim = true
ms mon client mode = crc
ms bind msgr1 = false
ms bind msgr2 = true
ms bind retry count = 1
ms bind retry delay = 1
run dir = $dir/run
admin socket = $dir/run/\$name.asok
pid file = $dir/run/\$name.pid
log file = $dir/log/\$name.log
log to stderr = false
err to stderr = false
mon data = $dir/mon/\$name
osd data = $dir/osd/\$name
keyring = $dir/keyring
osd objectstore = memstore
memstore device bytes = $store_bytes
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
mon warn on pool no redundancy = false
mon data avail warn = 1
mon data avail crit = 0
paxos propose interval = 0.05
paxos min wait = 0.01
[client.rgw]
# tcp_nodelay: without it every answer with a body (a listing, a small GET) waits about 40 ms
# for the client's delayed ACK (Nagle), which caps a client at ~25 such requests/s per connection.
rgw frontends = beast endpoint=127.0.0.1:$rgw_port tcp_nodelay=1
rgw data = $dir/rgw
rgw multipart min part size = $min_part_size
rgw enable usage log = false
EOF

monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$dir/monmap" >/dev/null 2>"$dir/monmap.out" \
    || fail 1 "monmaptool failed"
ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" >"$dir/mkfs-mon.out" 2>&1 || fail 1 "ceph-mon --mkfs failed"
start mon ceph-mon -c "$conf" -i a -f

# The first command the monitor answers registers the OSD (the same uuid gives the same id).
osd_id=
for _ in $(seq 1 30); do
    port_taken "$dir/mon.out" "$dir/log/mon.a.log" && fail 3 "the monitor's port $mon_port is taken"
    kill -0 "${pids[0]}" 2>/dev/null || fail 1 "ceph-mon exited"
    if osd_id=$(timeout 10 ceph -c "$conf" --connect-timeout 3 osd create "$osd_uuid" 2>"$dir/osd-create.out"); then
        break
    fi
    osd_id=
done
[ -n "$osd_id" ] || fail 1 "the monitor did not answer"
ceph-osd -c "$conf" -i "$osd_id" --mkfs --osd-uuid "$osd_uuid" >"$dir/mkfs-osd.out" 2>&1 \
    || fail 1 "ceph-osd --mkfs failed"
start osd ceph-osd -c "$conf" -i "$osd_id" -f
# radosgw creates its pools at start, which waits for the OSD to be up.
start rgw radosgw -c "$conf" -n client.rgw -f
rgw_pid=${pids[2]}

# Waits for the gateway to answer an anonymous request (HTTP 200 with an empty bucket list).
ready=0
for _ in $(seq 1 600); do
    if ! kill -0 "$rgw_pid" 2>/dev/null; then
        port_taken "$dir/rgw.out" "$dir/log/client.rgw.log" && fail 3 "the gateway's port $rgw_port is taken"
        fail 1 "radosgw exited"
    fi
    if { exec 3<>"/dev/tcp/127.0.0.1/$rgw_port"; } 2>/dev/null; then
        printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
        status=$(timeout 5 head -n 1 <&3)
        exec 3>&-
        case "$status" in
        HTTP/1.?\ 200*)
            ready=1
            break
            ;;
        esac
    fi
    sleep 0.1
done
[ "$ready" -eq 1 ] || fail 1 "radosgw did not answer within 60 s"

radosgw-admin -c "$conf" user create --uid=stratus --display-name=Stratus --max-buckets=100000 \
    --access-key="$access_key" --secret-key="$secret_key" >"$dir/user.out" 2>&1 || fail 1 "radosgw-admin user create failed"

echo "$rgw_port"
# Until the parent ends (or closes the pipe).
cat >/dev/null
