#!/usr/bin/env bash
# Run every check from a fresh clone: installs the Python packages, a Chromium and axe-core for
# the browser journeys if they are missing, then lint, unit, property, page and browser tests.
# Extra arguments go to pytest (e.g. scripts/test.sh -k loader).
set -euo pipefail
cd "$(dirname "$0")/.."

# the Python packages at the lock's exact versions (requirements-lock.txt, refreshed by
# scripts/lock.sh), beside the machine's own packages below (a fresh machine waits for both)
python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt \
    -c requirements-lock.txt &
pip_install=$!

# Debian's packages the tests use, where they are missing, in one apt-get run (each
# `apt-get update` costs a fresh machine seconds): Chromium's headless shell for the browser
# journeys (testkit/chromium.py takes a whole Chromium where the shell is not), npm for
# axe-core, node to read the page's modules (tests/test_js_modules.py), redis-server for the
# class store's tests (tests/test_classroom_redis.py), nginx for the framed class's journey
# (tests/browser/test_class_framed.py, with deploy/run.sh's headers) and the deployment journeys
# (tests/browser/test_hall_deployment.py, test_two_hosts.py)
missing=()
command -v chromium-headless-shell >/dev/null \
    || [ -x /usr/lib/chromium/chromium-headless-shell ] || missing+=(chromium-headless-shell)
if [ ! -f tests/.axe/node_modules/axe-core/axe.min.js ] && ! command -v npm >/dev/null; then
    missing+=(npm)
fi
command -v node >/dev/null || missing+=(nodejs)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ ${#missing[@]} -gt 0 ]; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "Installing ${missing[*]} for the tests (apt-get)..."
        apt-get update -qq
        export DEBIAN_FRONTEND=noninteractive
        if ! apt-get install -y -qq "${missing[@]}" >/dev/null; then
            # one at a time: a package that cannot be installed holds back no other
            for package in "${missing[@]}"; do
                apt-get install -y -qq "$package" >/dev/null \
                    || echo "apt-get could not install $package" >&2
            done
        fi
    else
        echo "Missing ${missing[*]} (Debian: apt-get install ${missing[*]}): without a system" \
             "Chromium Playwright downloads its own; without redis-server its tests are" \
             "skipped (and fail in CI), without nginx the framed class's journey is." >&2
    fi
fi
wait "$pip_install"

if ! python -m testkit.chromium >/dev/null; then
    echo "No system Chromium: letting Playwright download its own..."
    python -m playwright install chromium
fi

# axe-core, the accessibility rules the browser tests audit every lesson with (test_access.py),
# from the npm registry into a git-ignored folder
if [ ! -f tests/.axe/node_modules/axe-core/axe.min.js ]; then
    npm install --no-save --no-audit --no-fund --silent --prefix tests/.axe axe-core@4
fi

ruff check .
# a worker a core and one more (PYTEST_WORKERS sets another number): the browser journeys
# spend part of their time waiting on a page, a cut network or a restart, and on 2 cores a
# third worker ran the suite in about four fifths of the time two took (bench/README.md, "The
# test suite"); the journeys' waits stretch by the workers per core (tests/browser/conftest.py,
# _slowness)
workers="${PYTEST_WORKERS:-$(python -c 'import os; print((os.cpu_count() or 1) + 1)')}"
python -m pytest -n "$workers" --dist worksteal --durations=15 "$@"
