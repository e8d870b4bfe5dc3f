#!/usr/bin/env bash
# Install TenFlang with its test dependencies into ./.venv and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check ".[test]"
exec .venv/bin/python -m pytest -q "$@"
