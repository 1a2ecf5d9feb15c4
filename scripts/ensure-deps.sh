#!/usr/bin/env bash
# Installs what a fresh clone is missing: the npm dependencies (again whenever package-lock.json
# changes), and the package's link to itself so examples, tests and the provider plugin resolve
# `pulumi-wsbridge` exactly as a user's program resolves an installed dependency.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

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
# The provider plugin's generated Node.js SDK, once compiled (scripts/build-nodejs-sdk.sh), resolves
# as `@pulumi-wsbridge/wsbridge` the same way.
mkdir -p node_modules/@pulumi-wsbridge
ln -sfn ../../sdk/nodejs/bin node_modules/@pulumi-wsbridge/wsbridge

# The tests run on the Node.js versions the pinned SDK declares (CONTRIBUTING.md, "Tests").
node -e '
  const fs = require("node:fs");
  // semver as the SDK itself resolves it, not whatever happens to be hoisted
  const semver = require(require.resolve("semver", { paths: [fs.realpathSync("node_modules/@pulumi/pulumi")] }));
  const sdk = JSON.parse(fs.readFileSync("node_modules/@pulumi/pulumi/package.json", "utf8"));
  const wanted = (sdk.engines && sdk.engines.node) || "*";
  if (!semver.satisfies(process.version, wanted)) {
    console.error(`Node.js ${process.version} does not satisfy @pulumi/pulumi ${sdk.version}: engines.node "${wanted}"`);
    process.exit(1);
  }
'

