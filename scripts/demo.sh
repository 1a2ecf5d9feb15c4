#!/usr/bin/env bash
# The demo, from a fresh clone: installs what is missing, builds, then runs scripts/demo.ts.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-deps.sh
npx tsc -p tsconfig.json
node -r ./scripts/lib/register-ts.js scripts/demo.ts
