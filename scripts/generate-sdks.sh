#!/usr/bin/env bash
# Writes the provider plugin's SDKs (sdk/<language>/) from schema/schema.json with Pulumi's own code
# generators, through scripts/sdkgen: a Go program pinned to the Pulumi release of the CLI, which runs
# the .NET generator through scripts/sdkgen/dotnet (the language hosts that `pulumi package gen-sdk`
# would use cannot be installed here; CONTRIBUTING.md, "Tests"). Each language's directory is deleted and
# written afresh; the Go SDK's go.mod and go.sum are completed with `go mod tidy`.
#
#   scripts/generate-sdks.sh                        # sdk/nodejs, sdk/go, sdk/python, sdk/dotnet
#   scripts/generate-sdks.sh --out DIR              # DIR/<language> instead (the tests compare it with sdk/)
#   scripts/generate-sdks.sh --language go,python   # only these (repeat the flag or separate with commas)
#   scripts/generate-sdks.sh --schema FILE          # another schema
#
# The first run builds the programs (a few minutes with an empty Go build cache); later runs reuse
# the cached builds. Go modules come through the module proxy, verified against the committed go.sum
# files, and stay in the module cache.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v go >/dev/null || { echo "generate-sdks: go is not on PATH; it is needed to run Pulumi's SDK generators" >&2; exit 1; }
languages=(--language nodejs,go,python,dotnet)
for arg in "$@"; do
  case "$arg" in --language|--language=*) languages=() ;; esac
done
cd "$root/scripts/sdkgen"
# -mod=readonly: go.mod and go.sum are committed and must not change under a build. -trimpath keeps
# the clone's path out of the build cache's keys, so another clone reuses the compiled program.
CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false -trimpath" \
  go run . --schema "$root/schema/schema.json" --out "$root/sdk" "${languages[@]}" "$@"
