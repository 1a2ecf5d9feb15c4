#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing (npm packages, the Pulumi CLI),
# builds, type-checks and runs every test. Extra arguments go to jest (e.g. a test file).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-deps.sh
# The provider plugin's archive for this machine (the release test builds all five) and its SDK, which
# the plugin-route tests install and import as users do; first, since the type-check needs the SDK's types.
node scripts/build-plugin.js --platform this > /dev/null
# Build and type-check side by side (two cores); either failing fails the run.
npx tsc -p tsconfig.json & build=$!
npx tsc -p tsconfig.test.json & typecheck=$!
wait "$build"
wait "$typecheck"
# The committed JSON Schemas are checked by test/unit/input-schemas.test.ts.
# Built (or found) before jest starts, so a first-time CLI build is not inside a test's timeout.
bash scripts/setup-pulumi.sh > /dev/null
mkdir -p .wsbridge
status=0
npx jest --ci --json --outputFile=.wsbridge/jest-results.json "$@" || status=$?
node -e '
  const r = require("./.wsbridge/jest-results.json");
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' || true
exit "$status"
