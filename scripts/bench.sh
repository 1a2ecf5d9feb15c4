#!/usr/bin/env bash
# The benchmarks (not tests): emulator throughput, client overhead over loopback, and the fault
# campaign at scale on the real Pulumi CLI. Each prints a table.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-deps.sh
npx tsc -p tsconfig.json
node bench/emulator.js
echo
node bench/client.js
echo
bash scripts/setup-pulumi.sh > /dev/null
node -r ./scripts/lib/register-ts.js bench/faults.ts
