#!/usr/bin/env bash
# Writes the provider plugin's Java SDK (sdk/java/) from schema/schema.json with Pulumi's Java code
# generator (github.com/pulumi/pulumi-java v1.34.0, pkg/codegen/java), through scripts/sdkgen/java: a
# Go module of its own, because that generator needs a newer github.com/pulumi/pulumi/pkg/v3 than the
# one scripts/sdkgen is pinned to (scripts/sdkgen/java/main.go says more). It generates what
# `pulumi package gen-sdk --language java` would (sources and build.gradle), and a pom.xml beside it
# for Maven (scripts/sdkgen/java/maven.go). The directory is deleted and written afresh.
#
#   scripts/generate-java-sdk.sh                  # sdk/java
#   scripts/generate-java-sdk.sh --out DIR        # DIR/java instead (as generate-sdks.sh; the test compares it with sdk/java)
#   scripts/generate-java-sdk.sh --schema FILE    # another schema
#
# The first run downloads the Go modules (through the module proxy, checked against the committed
# go.sum) and builds the program: about two and a half minutes on a 2-core machine with empty Go
# caches; later runs take seconds. Build and install the SDK with Maven: `mvn install` in sdk/java.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/sdk"
schema="$root/schema/schema.json"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    --schema) schema=${2:?--schema needs a file}; shift 2 ;;
    --schema=*) schema=${1#--schema=}; shift ;;
    *) echo "generate-java-sdk: unknown argument $1 (usage: $0 [--out DIR] [--schema FILE])" >&2; exit 2 ;;
  esac
done
command -v go >/dev/null || { echo "generate-java-sdk: go is not on PATH; it is needed to run Pulumi's Java SDK generator" >&2; exit 1; }
# Absolute paths: the program runs in its own directory.
mkdir -p "$out"
out=$(cd "$out" && pwd)
schema=$(cd "$(dirname "$schema")" && pwd)/$(basename "$schema")
cd "$root/scripts/sdkgen/java"
# -mod=readonly: go.mod and go.sum are committed and must not change under a build. -trimpath keeps
# the clone's path out of the build cache's keys, so another clone reuses the compiled program.
CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false -trimpath" \
  go run . --schema "$schema" --out "$out/java"
