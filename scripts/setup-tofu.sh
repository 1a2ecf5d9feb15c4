#!/usr/bin/env bash
# Makes a real OpenTofu CLI available, the version that wrote test/fixtures/terraform-migration/
# (its tool-versions.txt), and prints (as its last stdout line) the path of the `tofu` executable.
# The tests run `tofu validate` on the release files adopt writes (provider/adopt/terraform/release.ts).
#
# Order: a `tofu` on PATH with exactly that version; else the per-user cache (shared by every clone on
# the machine); else build it once from OpenTofu's Go module through the module proxy. Progress goes
# to stderr.
#
# Why not `go install github.com/opentofu/opentofu/cmd/tofu@v1.10.10`: OpenTofu's go.mod has `replace`
# directives (its fork of hcl), which `go install pkg@version` refuses. So the module is downloaded
# (verified against Go's checksum database), copied out of the read-only module cache, and built in
# place as OpenTofu's own release does (.goreleaser.yaml: -mod=readonly, -trimpath, CGO off, the
# version's -dev marker off), its dependencies verified against the go.sum it ships.
set -euo pipefail

version=1.10.10
want="OpenTofu v$version"
module="github.com/opentofu/opentofu@v$version"
log() { printf 'setup-tofu: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# The first line of `tofu version`, without the CLI-configuration warnings (on stderr) or any network.
version_of() { CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE=/dev/null "$1" version 2>/dev/null | sed -n 1p; }

# 1. A tofu already on PATH, if its version is exactly the pinned one.
if existing=$(command -v tofu 2>/dev/null); then
  have=$(version_of "$existing" || true)
  if [ "$have" = "$want" ]; then
    log "using $have from PATH ($existing)"
    echo "$existing"
    exit 0
  fi
  [ -n "$have" ] && log "tofu on PATH is ${have#OpenTofu }, not v$version; using the project's own build"
fi

cache_root=${WSBRIDGE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-wsbridge}
target_dir="$cache_root/tofu-v$version"
target="$target_dir/tofu"

cached_ok() { [ -x "$target" ] && [ "$(version_of "$target" || true)" = "$want" ]; }

# 2. The per-user cache.
if cached_ok; then
  log "using cached $want ($target)"
  echo "$target"
  exit 0
fi

# 3. Build it. A lock (setup-pulumi.sh's too) keeps two clones or two test runs from building at once;
# the binary is built under a temporary name beside its place and renamed into it, so no run ever sees
# half of it.
command -v go >/dev/null || die "go is not on PATH; it is needed once to build OpenTofu"
mkdir -p "$target_dir"
exec 9>"$cache_root/.build.lock"
flock 9
if cached_ok; then echo "$target"; exit 0; fi

log "building $want from its Go module (first time only; several minutes with empty Go caches)"
started=$(date +%s)
build=$(mktemp -d "${TMPDIR:-/tmp}/setup-tofu.XXXXXX")
partial="$target_dir/.tofu.partial.$$"
trap 'chmod -R u+w "$build" 2>/dev/null; rm -rf "$build" "$partial"' EXIT

# Outside any module (and any go.work), so the download is of the module alone.
download=$(cd "$build" && GOWORK=off GOFLAGS= go mod download -json "$module") ||
  die "go mod download $module failed: $download"
src=$(printf '%s\n' "$download" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
[ -n "$src" ] && [ -f "$src/go.mod" ] || die "go mod download $module gave no module folder: $download"

# Built in a copy, not in the shared read-only module cache: with -mod=readonly nothing is written
# into the source (building in place works too), but a copy costs about a second and keeps the cache untouched.
cp -R "$src" "$build/src"
chmod -R u+w "$build/src"
(
  cd "$build/src"
  GOWORK=off CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath \
    -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" -o "$partial" ./cmd/tofu
) >&2 || die "go build of $module failed"
have=$(version_of "$partial" || true)
[ "$have" = "$want" ] || die "the built tofu reports '$have', not '$want'"
mv -f "$partial" "$target"
log "built $want in $(( $(date +%s) - started ))s into $target"
echo "$target"
