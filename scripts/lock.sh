#!/usr/bin/env bash
# Refresh requirements-lock.txt: the newest versions that requirements-dev.txt and
# requirements-deploy.txt allow, installed into a fresh virtual environment and written down
# exactly. The test command (scripts/test.sh) and CI install with these pins as constraints, so
# every machine tests the same versions; users keep the ranges of requirements*.txt.
# After a refresh run the suite (bash scripts/test.sh) before committing the new lock;
# tests/test_lock.py checks that the lock and the ranges agree.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(mktemp -d)/venv"
trap 'rm -rf "$(dirname "$venv")"' EXIT
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r requirements-dev.txt -r requirements-deploy.txt
{
    echo "# Exact versions the test command and CI install (pip's -c): refreshed by"
    echo "# 'bash scripts/lock.sh' with $("$venv/bin/python" --version)."
    "$venv/bin/python" -m pip freeze --all --disable-pip-version-check \
        | grep -viE '^(pip|setuptools|wheel)=='
} > requirements-lock.txt
echo "requirements-lock.txt: $(grep -vc '^#' requirements-lock.txt) packages"
