#!/usr/bin/env bash
# The benchmarks (not tests): emulator throughput, client overhead over loopback, the runtime's own
# costs (require time, first call, serialized provider, pacing), the fault
# campaign at scale, and the lifecycle timings at 10, 100 and 1,000 workspaces (both on the real Pulumi
# CLI). Each prints a table. bench/lifecycle.ts lists its BENCH_LIFECYCLE_* settings.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-deps.sh
npx tsc -p tsconfig.json
node bench/emulator.js
echo
node bench/client.js
echo
node -r ./scripts/lib/register-ts.js bench/runtime-costs.ts
echo
bash scripts/setup-pulumi.sh > /dev/null
node -r ./scripts/lib/register-ts.js bench/faults.ts
echo
node -r ./scripts/lib/register-ts.js bench/lifecycle.ts
