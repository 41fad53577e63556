#!/usr/bin/env bash
# Services the test suite needs that pip cannot install, from Debian's packages (idempotent):
# headless Chromium for the report test (tests/warehouse/test_report.py).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
        echo "install-services: chromium missing and not root (no sudo): the report test will skip" >&2
        exit 0
    fi
else
    SUDO=""
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium
