#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing (npm packages, the Pulumi CLI),
# builds, type-checks and runs every test. Extra arguments go to jest (e.g. a test file).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The suite's Go programs (the Pulumi CLI, its YAML host, go build and vet, the Go test programs) are
# short-lived and allocate much. GOGC=400 lets each heap grow to five times what it holds alive before a
# collection (Go's default: twice): the test files that run them most took 5 to 10% less CPU
# (CONTRIBUTING.md, "Time"), and the machine's memory has room for it. An exported GOGC is kept.
export GOGC="${GOGC:-400}"
bash scripts/ensure-deps.sh
# The provider plugin's SDK, which the plugin-route tests import as users do and whose types the
# type-check needs, first; then this machine's plugin archive (the release test builds all five), which
# mostly uses one core, beside the build and the type-check (any of them failing fails the run).
node scripts/build-plugin.js --only sdk > /dev/null
node scripts/build-plugin.js --only archives --platform this > /dev/null & plugin=$!
npx tsc -p tsconfig.json & build=$!
npx tsc -p tsconfig.test.json & typecheck=$!
wait "$plugin"
wait "$build"
wait "$typecheck"
# dist/ is now the tree's: tests that start the emulator's CLI as a process run it instead of compiling
# their own (test/support/built-emulator-cli.ts).
export WSBRIDGE_DIST_CURRENT=1
# The committed JSON Schemas are checked by test/unit/input-schemas.test.ts.
# Built (or found) before jest starts, so a first-time CLI build is not inside a test's timeout; the
# test files take its folder from here instead of each running the script again.
WSBRIDGE_PULUMI_ROOT=$(bash scripts/setup-pulumi.sh | tail -n 1)
export WSBRIDGE_PULUMI_ROOT
# OpenTofu, for the tests that validate the release files adopt writes (test/support/tofu.ts): built
# here too, so that its first-time build is not inside a test's timeout.
WSBRIDGE_TOFU=$(bash scripts/setup-tofu.sh | tail -n 1)
export WSBRIDGE_TOFU
mkdir -p .wsbridge
rm -f .wsbridge/jest-results.json
status=0
npx jest --ci --json --outputFile=.wsbridge/jest-results.json "$@" || status=$?
node -e '
  const fs = require("node:fs");
  // jest writes no results when its global teardown fails, as it does when a test changed a shared build
  // output in place (test/support/shared-outputs.ts); the exit status says the run failed.
  if (!fs.existsSync("./.wsbridge/jest-results.json")) {
    console.log("jest wrote no results: the run failed outside the tests (see the error above).");
    process.exit(0);
  }
  const r = require("./.wsbridge/jest-results.json");
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' || true
exit "$status"
