#!/usr/bin/env bash
# Installs what a fresh clone is missing: the npm dependencies (again whenever package-lock.json
# changes), and the package's link to itself so examples, tests and the provider plugin resolve
# `pulumi-wsbridge` exactly as a user's program resolves an installed dependency.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The pinned @pulumi/pulumi declares the Node.js versions it supports; refuse to run on another.
node -e '
  const want = ">=20";  // engines.node of @pulumi/pulumi 3.246.0 (see README, "Why Pulumi 3.246.0")
  const major = Number(process.versions.node.split(".")[0]);
  if (!(major >= 20)) { console.error(`Node.js ${process.version} is too old: the pinned Pulumi SDK needs ${want}`); process.exit(1); }
'

stamp=node_modules/.wsbridge-lock.sha256
want=$(sha256sum package-lock.json | cut -d" " -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "ensure-deps: installing npm dependencies" >&2
  # `npm install`, not `npm ci`: npm 11 leaves other platforms' optional packages (jest's resolver
  # bindings) out of the lock and then `npm ci` rejects its own lock. With a lock present,
  # `npm install` installs exactly the locked versions; the check below proves it changed nothing.
  npm install --no-audit --no-fund --loglevel=error >&2
  if [ "$(sha256sum package-lock.json | cut -d" " -f1)" != "$want" ]; then
    echo "ensure-deps: npm changed package-lock.json; commit the new lock if that was intended" >&2
    exit 1
  fi
  echo "$want" > "$stamp"
fi
ln -sfn .. node_modules/pulumi-wsbridge
