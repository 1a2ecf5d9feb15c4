#!/usr/bin/env bash
# The benchmarks (not tests): emulator throughput and client overhead over loopback. Each prints a table.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-deps.sh
npx tsc -p tsconfig.json
node bench/emulator.js
echo
node bench/client.js
