#!/usr/bin/env bash
# Regenerates test/fixtures/older-state/: stacks made by an older commit's code, which
# test/cli/older-state.test.ts previews, updates and refreshes with the current code.
#
#   bash scripts/make-older-state-fixtures.sh [commit]     # default: 17856a4, the commit before the restructuring
#
# Makes a git worktree of the commit in a temporary folder, installs and builds it there (its own
# scripts/ensure-deps.sh, plugin archive and SDK, dist/), copies the shared program
# (test/support/older-state-program.ts) and its driver (test/support/older-state-fixture-run.ts) into
# it and runs the driver there: that commit's emulator (a state file, fixed port, self-managed
# edition) and, with the real Pulumi CLI (shared in ~/.cache/pulumi-wsbridge), `up` and `refresh` of
# one stack per route in a file backend with a fixed passphrase; then, with that commit's code again,
# what the test does (preview, up, refresh: each must change nothing), recording their requests and
# messages. Then copies the stacks' state and settings, those records and the emulator's state file
# here, writes the README, and removes the worktree. Takes about two minutes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)
commit=$(git rev-parse --verify "${1:-17856a4}^{commit}")
fixture="$repo/test/fixtures/older-state"

work=$(mktemp -d "${TMPDIR:-/tmp}/wsbridge-older-state-XXXXXX")
tree="$work/tree"
cleanup() {
  git -C "$repo" worktree remove --force "$tree" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

git -C "$repo" worktree add --detach "$tree" "$commit" >&2
(
  cd "$tree"
  bash scripts/ensure-deps.sh
  node scripts/build-plugin.js > /dev/null
  npx tsc -p tsconfig.json
  mkdir -p test/support
  cp "$repo/test/support/older-state-program.ts" "$repo/test/support/older-state-fixture-run.ts" test/support/
  node -r ./scripts/lib/register-ts.js test/support/older-state-fixture-run.ts "$work/out"
)
cli_version=$("$(cd "$tree" && bash scripts/setup-pulumi.sh 2>/dev/null | tail -1)/bin/pulumi" version)

mkdir -p "$fixture"
rm -f "$fixture"/*.state.json "$fixture"/Pulumi.*.yaml "$fixture"/emulator-state.json "$fixture"/requests.json "$fixture"/operations.json
cp "$work/out"/*.state.json "$work/out"/Pulumi.*.yaml "$work/out/emulator-state.json" "$work/out/operations.json" "$fixture/"
cat > "$fixture/README.md" <<EOF
# Stacks made by an older commit

Made by \`bash scripts/make-older-state-fixtures.sh $(git -C "$repo" rev-parse --short "$commit")\` on $(date -u +%Y-%m-%d), from commit
\`$commit\` ("$(git -C "$repo" log -1 --format=%s "$commit")"), with the Pulumi CLI $cli_version.
Run the script again to regenerate them; \`test/cli/older-state.test.ts\` uses them.

The script made a worktree of that commit, built it, started that commit's emulator (self-managed
edition, port 28417, fixtures and ids from \`test/support/older-state-program.ts\`, state persisted to
a file) and, with that commit's code and the real CLI, ran for each route (\`dynamic\`:
\`pulumi-wsbridge\`; \`plugin\`: \`pulumi-resource-wsbridge\` and \`@pulumi-wsbridge/wsbridge\`) \`up\` of the
program in \`test/support/older-state-program.ts\` (every resource kind), then \`refresh\` (which
takes in what the lock, the SSH key, the tag bindings and the consumers changed of the Workspaces'
outputs), and saved each stack. Then, on those stacks and the server as both left it, it ran with that
commit's code what the test runs with the current code: \`preview\`, \`up\` and \`refresh\`, each of which
had to change nothing and send no write, and recorded their requests and messages.

- \`dynamic.state.json\`, \`plugin.state.json\`: the stacks' state, as the file backend stored it
  (\`.pulumi/stacks/wsbridge-older-state/<stack>.json\`);
- \`Pulumi.dynamic.yaml\`, \`Pulumi.plugin.yaml\`: the stacks' settings: the emulator's address, its
  token (a secret) and the organization, and the encryption salt of the passphrase
  \`wsbridge-older-state-fixture\` (\`OLDER_STATE_PASSPHRASE\`);
- \`emulator-state.json\`: the emulator's state file after both stacks (\`--state-file\`);
- \`operations.json\`: what that commit's \`preview\`, \`up\` and \`refresh\` of each stack showed: the
  requests (\`METHOD /path?query status\`, sorted) and the messages the CLI printed, which the test
  compares with the current code's.

The address \`http://127.0.0.1:28417\` in the stacks' config and in the Workspaces' \`htmlUrl\` and
\`apiUrl\` is that emulator's; the test runs its emulator on a free port and writes its address in
their place in its copies.
EOF
echo "older-state fixture written to $fixture from $commit" >&2
