#!/bin/sh
# Installs what the browser tests need: Debian's Chromium and playwright-core
# (pinned in package-lock.json). Run as root from anywhere; then
#   go test ./web/e2e/
set -eu
cd "$(dirname "$0")"
if [ ! -x /usr/bin/chromium ]; then
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
	apt-get clean
fi
npm ci --no-audit --no-fund
