#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing (npm packages, the Pulumi CLI),
# builds, type-checks and runs every test. Extra arguments go to jest (e.g. a test file).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
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
