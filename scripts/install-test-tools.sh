#!/usr/bin/env bash
# Installs what the test suite needs beyond Rust, Node.js and npm: Debian's Chromium, which
# the browser tests (tests/mermaid_render.rs, tests/report_browser.rs) drive headless.
# Does nothing when it is there already (or when CHROMIUM names another build).
set -euo pipefail
if [ -x /usr/bin/chromium ] || [ -n "${CHROMIUM:-}" ]; then
    exit 0
fi
sudo_cmd=""
if [ "$(id -u)" != 0 ]; then
    sudo_cmd="sudo"
fi
echo "install-test-tools: installing chromium with apt-get" >&2
$sudo_cmd apt-get update
$sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
