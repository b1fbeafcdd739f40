#!/usr/bin/env bash
# Every benchmark in bench/, one after another; each prints its own tables.
#
#   bash bench/run.sh            # full size (about 22 minutes, plus up to 20 waiting
#                                # for a quiet machine before the lecture-hall runs)
#   QUICK=1 bash bench/run.sh    # small numbers, a few minutes: to check it all works
#
# It installs what it needs: bench/requirements.txt (psutil, py-spy, websockets on top of
# requirements-dev.txt), a Chromium as the test command does, and nginx (Debian's package,
# as root) for the runs behind it.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python}"
failed=()

"$PYTHON" -m pip install --quiet --disable-pip-version-check -r bench/requirements.txt
if ! "$PYTHON" -m testkit.chromium >/dev/null || ! command -v nginx >/dev/null \
        || ! command -v redis-server >/dev/null; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium nginx \
            redis-server >/dev/null
    else
        echo "Install Chromium, nginx and redis-server first (the runs behind nginx need them)." >&2
    fi
fi

run() {
    echo
    echo "### $*"
    echo
    "$PYTHON" -m "$@" || failed+=("$*")
}

if [[ "${QUICK:-0}" == 1 ]]; then
    run bench.core_speed --sizes 20000 --repeats 1
    run bench.regions --grids 120 --sizes 100 --repeats 1
    run bench.latency --steps 10 --n 1000
    run bench.payload --sizes 200
    run bench.load --sessions 20 --duration 10 --ramp 3
    run bench.load --sessions 20 --duration 10 --ramp 3 --nginx 2
    run bench.budget --sessions 5
    run bench.loader_cost --repeats 1 --idle 3 --only "one character" "tiny" "good"
    run bench.open_speed --views nonseparable --data xor-0-1 iris-versicolor-vs-virginica-petal
    run bench.classroom --followers 30 --presses 10
    run bench.classroom --followers 30 --presses 10 --nginx 2
    run bench.class_browsers --followers 30 --presses 5
    run bench.class_memory --classes 5 --followers 30
    run bench.identity --joins 50 --rounds 1
    run bench.rhythm --n 200 --seconds 5 --bursts 1
    run bench.lesson_open --rounds 1 --lessons "/?lecture=1"
    run bench.load --sessions 20 --duration 5 --ramp 0
    run bench.class_burst --joins 20
    run bench.follower_page --joins 20
    run bench.recovery --fault "kill student's"
else
    run bench.core_speed
    run bench.regions
    run bench.latency --steps 60 --n 1000 --profile
    run bench.latency --steps 60 --n 40
    run bench.payload
    run bench.budget
    run bench.loader_cost
    run bench.open_speed
    # the lecture hall: wait (up to 20 min) for the shared machine to be quiet first
    run bench.load --sessions 300 --wait-quiet 20
    run bench.load --sessions 300 --nginx 2 --wait-quiet 20
    run bench.classroom --followers 300
    run bench.classroom --followers 1000 --nginx 2
    run bench.class_browsers --followers 300
    run bench.class_browsers --followers 1000 --nginx 2
    run bench.class_memory
    run bench.identity
    run bench.rhythm
    run bench.lesson_open
    # the start of a lecture: the whole hall opens one link at once
    run bench.load --sessions 300 --duration 10 --ramp 0 --timeout 120 --wait-quiet 20
    run bench.load --sessions 1000 --duration 10 --ramp 0 --timeout 240 --nginx 2 --wait-quiet 20
    run bench.class_burst --joins 300
    run bench.follower_page --throttle --joins 300
    run bench.class_burst --joins 1000 --nginx 2 --timeout 240
    # a class through each fault of a supervised deployment, three times
    run bench.recovery --repeat 3
fi

echo
if ((${#failed[@]})); then
    echo "FAILED: ${failed[*]}"
    exit 1
fi
echo "All benchmarks ran."
