#!/usr/bin/env bash
# Pins scripts/pulumi-cli/go.mod (the Go module the Pulumi CLI is built from) and scripts/sdkgen/go.mod
# (the SDK generator, which uses Pulumi's code generators) to one Pulumi release.
# Use it together with `npm install -D @pulumi/pulumi@<version>`: setup-pulumi.sh refuses to run
# when the two disagree, so the CLI, the plugin launcher and the SDK always match. Then run
# `npm run generate`: the SDKs are rewritten by the new generators, and sdk/go requires the new Go SDK.
# (scripts/sdkgen/dotnet stays on pkg/v3 v3.225.1, the last release with the .NET generator.)
set -euo pipefail
version=${1:?usage: scripts/pin-pulumi.sh <version, e.g. 3.246.0>}
cd "$(dirname "${BASH_SOURCE[0]}")/pulumi-cli"
export GOFLAGS=-mod=mod CGO_ENABLED=0
go get -tool "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@v$version"
go get "github.com/pulumi/pulumi/pkg/v3@v$version" "github.com/pulumi/pulumi/sdk/v3@v$version"
go mod tidy
go list -m github.com/pulumi/pulumi/pkg/v3 github.com/pulumi/pulumi/sdk/v3
cd ../sdkgen
go get "github.com/pulumi/pulumi/pkg/v3@v$version" "github.com/pulumi/pulumi/sdk/v3@v$version"
go mod tidy
go list -m github.com/pulumi/pulumi/pkg/v3 github.com/pulumi/pulumi/sdk/v3
