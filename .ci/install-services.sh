#!/usr/bin/env bash
# Services the test suite needs that pip cannot install, from Debian's packages (idempotent):
# headless Chromium for the report test (tests/warehouse/read/test_report.py) and PostgreSQL's server
# binaries for the DuckLake catalog (the tests start and stop their own server on loopback,
# scripts/pg_loopback.py; no system service is enabled or started here).
set -euo pipefail
want=()
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    want+=(chromium)
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    want+=(postgresql)
fi
if [ ${#want[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
        echo "install-services: ${want[*]} missing and not root (no sudo): the tests that need them will skip" >&2
        exit 0
    fi
else
    SUDO=""
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${want[@]}"
