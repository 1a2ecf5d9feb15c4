#!/usr/bin/env bash
# Makes a real Pulumi CLI available whose version equals the @pulumi/pulumi SDK in package-lock.json,
# and prints (as its last stdout line) a directory whose bin/ holds `pulumi` and
# `pulumi-resource-pulumi-nodejs` (and `pulumi-language-yaml`, below).
#
# Order: a `pulumi` on PATH with exactly that version; else the per-user cache (shared by every clone
# on the machine); else build it once from Pulumi's Go modules through the module proxy, pinned by
# scripts/pulumi-cli/go.mod + go.sum. Progress goes to stderr.
#
# Why no `pulumi-language-nodejs`: the module proxy this machine reaches does not serve that Go module
# at any revision, so the CLI cannot get a Node.js language host. Our tests and demo therefore drive the
# CLI through the Automation API with inline programs (`pulumi up --client=...`): the Node process
# hosts the program, the CLI is the real engine, and dynamic providers run in the real
# `pulumi-resource-pulumi-nodejs` plugin. See CONTRIBUTING.md, "Tests".
#
# Why `pulumi-language-yaml` beside it: `pulumi import` asks the project's language host which
# packages the program needs, even with --generate-code=false, so it cannot run in a Node.js project
# here. Pulumi's YAML language host is served by the module proxy (pinned by scripts/pulumi-yaml/go.mod
# + go.sum), so the import tests run `pulumi import` for real in a YAML project, where it also prints
# the program it generates, which those tests then run with plain `pulumi preview`.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module_dir="$root/scripts/pulumi-cli"
log() { printf 'setup-pulumi: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

sdk_version=$(node -e '
  const lock = require(process.argv[1]);
  const entry = lock.packages && lock.packages["node_modules/@pulumi/pulumi"];
  if (!entry) { process.exit(1); }
  console.log(entry.version);
' "$root/package-lock.json") || die "package-lock.json has no node_modules/@pulumi/pulumi entry"

# The Go module must pin the same release as the SDK: CLI, plugin launcher and SDK versions match.
mod_version=$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { sub(/^v/, "", $2); print $2 }' "$module_dir/go.mod")
[ "$mod_version" = "$sdk_version" ] ||
  die "scripts/pulumi-cli/go.mod pins pulumi v$mod_version but package-lock.json has @pulumi/pulumi $sdk_version; run scripts/pin-pulumi.sh $sdk_version"

want="v$sdk_version"
launcher_src="$root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"

# 1. A pulumi already on PATH, if its version fits and its dynamic-provider launcher is reachable.
if existing=$(command -v pulumi 2>/dev/null); then
  have=$(PULUMI_SKIP_UPDATE_CHECK=true "$existing" version 2>/dev/null || true)
  existing_dir=$(dirname "$(readlink -f "$existing")")
  if [ "$have" = "$want" ] && [ "$(basename "$existing_dir")" = bin ] &&
     { [ -x "$existing_dir/pulumi-resource-pulumi-nodejs" ] || command -v pulumi-resource-pulumi-nodejs >/dev/null; } &&
     { [ -x "$existing_dir/pulumi-language-yaml" ] || command -v pulumi-language-yaml >/dev/null; }; then
    log "using pulumi $have from PATH ($existing)"
    dirname "$existing_dir"
    exit 0
  fi
  [ -n "$have" ] && log "pulumi on PATH is $have, not $want; using the project's own build"
fi

cache_root=${WSBRIDGE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-wsbridge}
target="$cache_root/pulumi-$want"

install_launcher() {
  # The launcher ships inside the @pulumi/pulumi npm package; it starts the dynamic-provider host.
  if [ -f "$launcher_src" ]; then
    install -m 0755 "$launcher_src" "$1/pulumi-resource-pulumi-nodejs"
  else
    die "node_modules/@pulumi/pulumi is missing; run npm ci first"
  fi
}

yaml_module_dir="$root/scripts/pulumi-yaml"
# The YAML host's pinned version, part of the cache's identity (a new pin rebuilds it).
yaml_version=$(awk '$1 == "github.com/pulumi/pulumi-yaml" { print $2 }' "$yaml_module_dir/go.mod")

cached_ok() {
  [ -x "$target/bin/pulumi" ] && [ -x "$target/bin/pulumi-resource-pulumi-nodejs" ] &&
    [ "$(cat "$target/bin/.pulumi-language-yaml.version" 2>/dev/null)" = "$yaml_version" ] &&
    [ -x "$target/bin/pulumi-language-yaml" ] &&
    [ "$(PULUMI_SKIP_UPDATE_CHECK=true "$target/bin/pulumi" version 2>/dev/null)" = "$want" ]
}

build_yaml_host() {
  # -mod=readonly: go.sum is committed, so every module is verified against the pinned hashes.
  ( cd "$yaml_module_dir" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -ldflags "-s -w" \
      -o "$1/" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml ) >&2
  echo "$yaml_version" > "$1/.pulumi-language-yaml.version"
}

# 2. The per-user cache.
if cached_ok; then
  log "using cached pulumi $want ($target/bin)"
  echo "$target"
  exit 0
fi

# 3. Build it. A lock keeps two clones (or two test runs) from building at once.
command -v go >/dev/null || die "go is not on PATH; it is needed once to build the Pulumi CLI"
mkdir -p "$cache_root"
exec 9>"$cache_root/.build.lock"
flock 9
if cached_ok; then echo "$target"; exit 0; fi

# A cache from before the YAML host (or of another pin of it): add just the host.
if [ -x "$target/bin/pulumi" ] && [ "$(PULUMI_SKIP_UPDATE_CHECK=true "$target/bin/pulumi" version 2>/dev/null)" = "$want" ]; then
  log "building pulumi-language-yaml $yaml_version into $target/bin (first time only)"
  build_yaml_host "$target/bin"
  install_launcher "$target/bin"
  cached_ok || die "the cached CLI in $target/bin is still incomplete"
  echo "$target"
  exit 0
fi

log "building pulumi $want from Go modules (first time only; this takes several minutes)"
started=$(date +%s)
staging=$(mktemp -d "$cache_root/.staging.XXXXXX")
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/bin"
(
  cd "$module_dir"
  # -mod=readonly: go.sum is committed, so every module is verified against the pinned hashes.
  CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -tags osusergo,grpcnotrace \
    -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$want" \
    -o "$staging/bin/" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
) >&2
build_yaml_host "$staging/bin"
install_launcher "$staging/bin"
[ "$(PULUMI_SKIP_UPDATE_CHECK=true "$staging/bin/pulumi" version)" = "$want" ] || die "built pulumi does not report $want"
rm -rf "$target"
mv "$staging" "$target"
trap - EXIT
log "built pulumi $want in $(( $(date +%s) - started ))s into $target/bin"
echo "$target"
