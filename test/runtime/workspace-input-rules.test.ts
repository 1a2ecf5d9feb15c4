// Every input rule of a Workspace, at the runtime level: the kind's check (what both routes call at
// `pulumi preview`) refuses each bad input with a failure that names the property and states the rule,
// and sends no request. The engine only frames a failure as `property <p> value {…} has a problem:
// <reason>`; that framing, and that the failing preview sends nothing, are shown on the real CLI by
// test/cli/plugin-matches-workspace.test.ts ("bad inputs … fail the preview"), on both routes.
import * as runtime from "../../provider/runtime";
import { ownerUrl } from "../../provider/runtime/ownership";
import { useRuntimeEmulator } from "../support/runtime-emulator";

const fixture = useRuntimeEmulator();
const workspace = runtime.workspace;

const long = (n: number): string => "a".repeat(n);
const repo = { identifier: "acme/infra", oauthTokenId: "ot-abc" };

/** [what is wrong, the inputs, the property the failure names, a part of the rule it states] */
const CASES: [string, Record<string, unknown>, string, string][] = [
  ["an empty name", { name: "" }, "name", "only letters, digits"],
  ["a name with a space", { name: "has space" }, "name", "only letters, digits"],
  ["a name over 260 characters", { name: long(261) }, "name", "at most 260 characters"],
  ["an organization with a slash", { name: "ok", organization: "acme/eu" }, "organization", "only letters, digits"],
  ["a description that is a number", { name: "ok", description: 42 }, "description", "must be a string"],
  ["an unknown execution mode", { name: "ok", executionMode: "cloud" }, "executionMode", '"remote", "local" or "agent"'],
  ["agent execution without a pool", { name: "ok", executionMode: "agent" }, "agentPoolId", 'required when executionMode is "agent"'],
  ["a pool with remote execution", { name: "ok", executionMode: "remote", agentPoolId: "apool-1" }, "agentPoolId", 'must not be set when executionMode is "remote"'],
  ["a pool with operations true", { name: "ok", operations: true, agentPoolId: "apool-1" }, "agentPoolId", "must not be set when operations is true"],
  ["operations with executionMode", { name: "ok", operations: false, executionMode: "local" }, "operations", "must not be set together with executionMode"],
  ["an overwritten mode without a mode", { name: "ok", settingOverwrites: { executionMode: true } }, "executionMode", "required when settingOverwrites.executionMode is true"],
  ["an unknown setting overwrite", { name: "ok", settingOverwrites: { vcs: true } }, "settingOverwrites.vcs", "is not a property of Workspace"],
  ["a zero inactivity duration", { name: "ok", autoDestroyActivityDuration: "0d" }, "autoDestroyActivityDuration", "greater than 0"],
  ["a five-digit duration", { name: "ok", autoDestroyActivityDuration: "12345d" }, "autoDestroyActivityDuration", "1 to 4 digits"],
  ["a duration in minutes", { name: "ok", autoDestroyActivityDuration: "30m" }, "autoDestroyActivityDuration", "followed by d or h"],
  ["a destroy time that is not a timestamp", { name: "ok", autoDestroyAt: "tomorrow" }, "autoDestroyAt", "ISO 8601 timestamp"],
  ["a destroy time on the 31st of February", { name: "ok", autoDestroyAt: "2027-02-31T25:00:00Z" }, "autoDestroyAt", "valid date and time"],
  ["both auto-destroy settings", { name: "ok", autoDestroyAt: "2027-01-31T18:00:00Z", autoDestroyActivityDuration: "14d" }, "autoDestroyActivityDuration", "must not be set together with autoDestroyAt"],
  ["trigger patterns and prefixes together", { name: "ok", triggerPatterns: ["*.tf"], triggerPrefixes: ["modules"] }, "triggerPrefixes", "together with triggerPatterns"],
  ["trigger patterns that are not a list", { name: "ok", triggerPatterns: "*.tf" }, "triggerPatterns", "must be a list of strings"],
  ["trigger patterns with file triggers off", { name: "ok", fileTriggersEnabled: false, triggerPatterns: ["*.tf"] }, "triggerPatterns", "must be empty when fileTriggersEnabled is false"],
  ["state shared with the project and the organization", { name: "ok", globalRemoteState: true, projectRemoteState: true }, "projectRemoteState", "must not be true together with globalRemoteState"],
  ["a repository without an OAuth token at create", { name: "ok", vcsRepo: { identifier: "acme/infra" } }, "vcsRepo.oauthTokenId", "required when the repository is first connected"],
  ["a repository identifier without an owner", { name: "ok", vcsRepo: { ...repo, identifier: "infra" } }, "vcsRepo.identifier", ":org/:repo"],
  ["a repository with both connections", { name: "ok", vcsRepo: { ...repo, githubAppInstallationId: "ghain-1" } }, "vcsRepo.githubAppInstallationId", "must not be set together with vcsRepo.oauthTokenId"],
  ["a repository without an identifier", { name: "ok", vcsRepo: { oauthTokenId: "ot-abc" } }, "vcsRepo.identifier", "must be a string"],
  ["a tag pattern that is not a regular expression", { name: "ok", vcsRepo: { ...repo, tagsRegex: "v(" } }, "vcsRepo.tagsRegex", "valid regular expression"],
  ["a tag pattern with trigger patterns", { name: "ok", triggerPatterns: ["*.tf"], vcsRepo: { ...repo, tagsRegex: "^v" } }, "vcsRepo.tagsRegex", "together with triggerPatterns or triggerPrefixes"],
  ["a project id of the wrong form", { name: "ok", projectId: "team-a" }, "projectId", 'must be a project id ("prj-…")'],
  ["eleven tag bindings", { name: "ok", tagBindings: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"])) }, "tagBindings", "at most 10 tags directly, got 11"],
  ["a reserved tag key", { name: "ok", tagBindings: { "hc:owner": "me" } }, "tagBindings.hc:owner", "reserved prefixes hc: or hcp:"],
  ["a tag key over 128 characters", { name: "ok", tagBindings: { [long(129)]: "v" } }, `tagBindings.${long(129)}`, "at most 128 characters"],
  ["a tag value over 256 characters", { name: "ok", tagBindings: { env: long(257) } }, "tagBindings.env", "at most 256 characters"],
  ["a tag value with a space", { name: "ok", tagBindings: { env: "pro d" } }, "tagBindings.env", "only letters, digits and _ . = + - @ :"],
  ["a flat tag with a space", { name: "ok", tagNames: ["pro d"] }, "tagNames[0]", "only letters, digits"],
  ["a flat tag listed twice", { name: "ok", tagNames: ["prod", "prod"] }, "tagNames", 'must not list "prod" twice'],
  ["a source URL that is not http(s)", { name: "ok", sourceUrl: "ftp://ci.example.com" }, "sourceUrl", "http(s) URL without a #fragment"],
  ["a source URL with a fragment", { name: "ok", sourceUrl: "https://ci.example.com/#x" }, "sourceUrl", "http(s) URL without a #fragment"],
  ["an empty engine version", { name: "ok", engineVersion: "" }, "engineVersion", "must not be empty"],
  ["a misspelt property", { name: "ok", autoAply: true }, "autoAply", "is not a property of Workspace"],
  ["a boolean given as text", { name: "ok", allowDestroyPlan: "yes" }, "allowDestroyPlan", "must be a boolean"],
];

// As the dynamic route sends them at a first preview: no old inputs, the serialized provider and the
// class's owner marker beside what the program declared.
const asRegistered = (inputs: Record<string, unknown>): Record<string, unknown> => ({
  ...inputs, __provider: "serialized provider", __owner: ownerUrl({ project: "proj", stack: "dev", kind: "Workspace", name: "subject" }),
});

test.each(CASES)("%s fails the check, naming the property and the rule, with no request", async (_what, inputs, property, rule) => {
  const { failures } = await workspace.check({}, asRegistered(inputs));
  expect(failures).toContainEqual({ property, reason: expect.stringContaining(rule) });
  expect(fixture.emulator.requests()).toEqual([]);
});

test("inputs that keep every rule of the table pass the check, with no request", async () => {
  // So the failures above come from the rules, not from the check refusing whatever it is given.
  const { failures } = await workspace.check({}, asRegistered({
    name: "ok", organization: "acme-eu", description: "text", executionMode: "agent", agentPoolId: "apool-1",
    settingOverwrites: { executionMode: true }, autoDestroyActivityDuration: "14d", fileTriggersEnabled: true,
    triggerPatterns: ["*.tf"], globalRemoteState: true, projectRemoteState: false, vcsRepo: repo, projectId: "prj-teamaaaaaaaaaa01",
    tagBindings: { env: "prod" }, tagNames: ["prod"], sourceUrl: "https://ci.example.com/x", engineVersion: "1.9.5", allowDestroyPlan: true,
  }));
  expect(failures).toEqual([]);
  expect(fixture.emulator.requests()).toEqual([]);
});
