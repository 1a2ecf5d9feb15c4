#!/usr/bin/env bash
# Regenerates the API reference, docs/api/, from the TSDoc comments of the package's exports
# (provider/index.ts), with the settings in typedoc.json. Extra arguments go to TypeDoc: the test
# passes `--out <dir>` to generate a copy to compare with the committed one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# --no-install: use the locked TypeDoc from node_modules, never one fetched on the fly.
npx --no-install typedoc "$@"
