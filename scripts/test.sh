#!/usr/bin/env bash
# Run every check from a fresh clone: installs the Python packages, a Chromium and axe-core for
# the browser journeys if they are missing, then lint, unit, property, page and browser tests.
# Extra arguments go to pytest (e.g. scripts/test.sh -k loader).
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

if ! python tests/browser/chromium.py >/dev/null; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "Installing Chromium for the browser tests (apt-get)..."
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "No system Chromium: letting Playwright download its own..."
        python -m playwright install chromium
    fi
fi

# axe-core, the accessibility rules the browser tests audit every lesson with (test_access.py),
# from the npm registry into a git-ignored folder; Debian's npm where the machine has none
if [ ! -f tests/.axe/node_modules/axe-core/axe.min.js ]; then
    if ! command -v npm >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "Installing npm for axe-core (apt-get)..."
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
    fi
    npm install --no-save --no-audit --no-fund --silent --prefix tests/.axe axe-core@4
fi

# the Redis class store is tested against a real redis-server (tests/test_classroom_redis.py)
if ! command -v redis-server >/dev/null; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "Installing redis-server for the class store's tests (apt-get)..."
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    else
        echo "No redis-server: install it (Debian: apt-get install redis-server)." >&2
    fi
fi

# nginx frames the app for a course site's page in tests/browser/test_class_framed.py, with
# the headers deploy/run.sh gives it
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "Installing nginx for the framed class's journey (apt-get)..."
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
    else
        echo "No nginx: the framed class's journey is skipped (Debian: apt-get install nginx)." >&2
    fi
fi

ruff check .
python -m pytest -n 2 --dist worksteal --durations=15 "$@"
