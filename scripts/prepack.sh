#!/usr/bin/env bash
# Runs before `npm pack` and `npm publish`, and when npm installs the package from a git URL: the
# package ships compiled JavaScript, so it builds a clean dist/ from the sources first (a file
# deleted from the sources must not linger in the tarball). Everything goes to stderr, so that
# `npm pack --json` prints only its JSON.
set -euo pipefail
exec 1>&2
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# `npm publish --dry-run` hands its dry-run setting to every npm below it; the build still needs the
# dependencies really installed to know what would be published.
env -u npm_config_dry_run bash scripts/ensure-deps.sh
rm -rf dist
npx tsc -p tsconfig.json
