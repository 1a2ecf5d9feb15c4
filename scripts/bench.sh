#!/usr/bin/env bash
# The benchmarks (not tests): emulator throughput, client overhead over loopback, the runtime's own
# costs (require time, first call, serialized provider, pacing), the fault
# campaign at scale, the lifecycle timings at 10, 100 and 1,000 workspaces, the plugin executables
# (archive sizes, start), and the routes side by side: the dynamic route, the provider plugin, and a Go program through the plugin, the engine's
# download of the plugin on a first up, `wsbridge adopt` at 1,000 workspaces and an estate of 10,000 as
# 51 stacks (these last seven on
# the real Pulumi CLI; the Go route needs `go` on PATH, as the test suite does). Each prints a table.
# bench/lifecycle.ts and bench/routes.ts list their BENCH_LIFECYCLE_* / BENCH_ROUTES_* settings.
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
echo
# The provider plugin's five archives and SDK as users install them: their sizes and the executable's
# start, then the three routes side by side.
node scripts/build-plugin.js > /dev/null
node -r ./scripts/lib/register-ts.js bench/plugin-executable.ts
echo
node -r ./scripts/lib/register-ts.js bench/routes.ts
echo
# The first up with an empty plugin cache (the engine downloads the plugin) against one with it installed.
node -r ./scripts/lib/register-ts.js bench/plugin-download.ts
echo
# wsbridge adopt: discovery of 1,000 workspaces against its request floor, the adoption step, the first preview.
node -r ./scripts/lib/register-ts.js bench/adopt.ts
echo
# An estate of 10,000 workspaces as 51 stacks (issue 50): discovery, the adoption steps with one token and
# with one per stack, the no-op previews, adopting again. About 40 minutes on 2 cores; BENCH_ESTATE_WORKSPACES
# and BENCH_ESTATE_PROJECTS scale it down.
node -r ./scripts/lib/register-ts.js bench/estate.ts
