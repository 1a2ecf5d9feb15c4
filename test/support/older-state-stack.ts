// A stack of the older-state fixture (test/fixtures/older-state/, made by
// scripts/make-older-state-fixtures.sh) opened with the current code: the harness's stack
// (scripts/lib/stack-harness.ts, the current plugin installed for the plugin route), whose state and
// settings are then replaced by the fixture's copies. The Automation API's stack keeps nothing of its
// own between commands, so its next command reads the fixture's state with the fixture's passphrase.
//
// The copies name the test's emulator: the fixture's emulator listened on a fixed port, and its
// address is in the stack config and in each Workspace's `htmlUrl` and `apiUrl`; the test's emulator
// listens on a free port (a fixed one would fail whenever two checkouts on the machine run the test
// at once), and every occurrence of the old address is replaced by the new one. That is the same stack
// on the same server moved to another address, config and state together.
import * as fs from "node:fs";
import * as path from "node:path";
import type { PulumiCommand, PulumiFn } from "@pulumi/pulumi/automation";
import { createStack, repoRoot, type HarnessStack } from "../../scripts/lib/stack-harness";
import { OLDER_STATE_ADDRESS, OLDER_STATE_PASSPHRASE, OLDER_STATE_PROJECT, type OlderStateRoute } from "./older-state-program";

export const OLDER_STATE_FIXTURE_DIR = path.join(repoRoot, "test", "fixtures", "older-state");

/** One resource of a stack's state, as the file backend stores it (the fields the tests read). */
export interface StoredResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The resources of a state file's text (`checkpoint.latest.resources`). */
function resourcesIn(text: string): StoredResource[] {
  const state = JSON.parse(text) as { checkpoint?: { latest?: { resources?: StoredResource[] } } };
  return state.checkpoint?.latest?.resources ?? [];
}

/** The resources of a state file. */
export const storedResources = (stateFile: string): StoredResource[] => resourcesIn(fs.readFileSync(stateFile, "utf8"));

/** A fixture file's text, with the emulator's address `address` in place of the fixture's. */
function fixtureText(file: string, address: string): string {
  return fs.readFileSync(path.join(OLDER_STATE_FIXTURE_DIR, file), "utf8").replaceAll(OLDER_STATE_ADDRESS, address);
}

/** The resources of the fixture's state of a route's stack, on an emulator at `address`. */
export const fixtureResources = (route: OlderStateRoute, address: string): StoredResource[] =>
  resourcesIn(fixtureText(`${route}.state.json`, address));

/** The commit the fixture was made from, as its README names it. */
export function fixtureCommit(): string {
  const readme = fs.readFileSync(path.join(OLDER_STATE_FIXTURE_DIR, "README.md"), "utf8");
  return /from commit\s+`([0-9a-f]{40})`/.exec(readme)?.[1] ?? "an older commit";
}

export interface OlderStateStack extends HarnessStack {
  /** The stack's state file in the temporary backend (the fixture's copy until an operation rewrites it). */
  readonly stateFile: string;
}

/** The route's stack of the fixture, with `program`, on the emulator at `address`, in a temporary folder; dispose() removes it. */
export async function openOlderStateStack(options: {
  cli: PulumiCommand;
  route: OlderStateRoute;
  program: PulumiFn;
  address: string;
}): Promise<OlderStateStack> {
  const { cli, route, program, address } = options;
  const harness = await createStack({
    cli,
    projectName: OLDER_STATE_PROJECT,
    stackName: route,
    program,
    env: { PULUMI_CONFIG_PASSPHRASE: OLDER_STATE_PASSPHRASE },
    ...(route === "plugin" && { plugin: true }),
  });
  const stacks = path.join(harness.dir, "backend", ".pulumi", "stacks", OLDER_STATE_PROJECT);
  const stateFile = path.join(stacks, `${route}.json`);
  // The empty stack `stack init` made: its metadata would describe that one, not the fixture's.
  for (const name of fs.readdirSync(stacks)) if (name.startsWith(`${route}.json.`)) fs.rmSync(path.join(stacks, name));
  fs.writeFileSync(stateFile, fixtureText(`${route}.state.json`, address));
  fs.writeFileSync(path.join(harness.dir, `Pulumi.${route}.yaml`), fixtureText(`Pulumi.${route}.yaml`, address));
  return { ...harness, stateFile };
}
