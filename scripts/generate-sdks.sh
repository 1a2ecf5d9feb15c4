#!/usr/bin/env bash
# Writes the provider plugin's SDKs (sdk/<language>/) from schema/schema.json with Pulumi's own code
# generators, through scripts/sdkgen: a Go program pinned to the Pulumi release of the CLI (the
# language hosts that `pulumi package gen-sdk` would use cannot be installed here; README "Limits").
# Each language's directory is deleted and written afresh.
#
#   scripts/generate-sdks.sh                 # sdk/nodejs
#   scripts/generate-sdks.sh --out DIR       # DIR/nodejs instead (the tests compare it with sdk/)
#
# The first run builds the program (a minute or two with an empty Go build cache); later runs reuse
# the cached build. Go modules come through the module proxy, verified against the committed go.sum.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v go >/dev/null || { echo "generate-sdks: go is not on PATH; it is needed to run Pulumi's SDK generators" >&2; exit 1; }
cd "$root/scripts/sdkgen"
# -mod=readonly: go.mod and go.sum are committed and must not change under a build.
CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" \
  go run . --schema "$root/schema/schema.json" --out "$root/sdk" --language nodejs "$@"
