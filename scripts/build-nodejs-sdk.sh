#!/usr/bin/env bash
# Compiles the generated Node.js SDK (sdk/nodejs/) to JavaScript in sdk/nodejs/bin/, with its
# package.json beside it as in the published package (the SDK reads its version from there, and
# registers its resources with that plugin version). node_modules/@pulumi-wsbridge/wsbridge links to
# bin/ (scripts/ensure-deps.sh), so `require("@pulumi-wsbridge/wsbridge")` works in the repository
# like an installed package. Uses the repository's TypeScript and @pulumi/pulumi.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../sdk/nodejs"
rm -rf bin
../../node_modules/.bin/tsc -p tsconfig.json
cp package.json bin/package.json
