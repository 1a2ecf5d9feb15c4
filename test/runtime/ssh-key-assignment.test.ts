// The SshKeyAssignment runtime (what the provider plugin calls) against an in-process emulator:
// check and diff decide the preview without a request, create/read/update/delete do what the preview
// promised with the request counts its docs page states, and every refusal names what to fix.
import * as runtime from "../../provider/runtime";
import { UNKNOWN } from "../../provider/runtime/lifecycle";
import { notesKept } from "../../provider/runtime/engine-log";
import { failureOf } from "../support/failure";
import { useRuntimeEmulator } from "../support/runtime-emulator";

const KEY_A = "sshkey-runtimeaaaaaaaa01";
const KEY_B = "sshkey-runtimebbbbbbbb02";
const OTHER_ORG_KEY = "sshkey-otherorgcccccc03";

const fixture = useRuntimeEmulator({
  emulator: {
    fixtures: {
      organizations: [
        { name: "example-org", sshKeys: [{ id: KEY_A, name: "deploy-a" }, { id: KEY_B, name: "deploy-b" }] },
        { name: "other-org", sshKeys: [{ id: OTHER_ORG_KEY, name: "theirs" }] },
      ],
    },
  },
});
const { api, configureWith, requestsMade } = fixture;
const assignment = runtime.sshKeyAssignment;

type Doc = { data: { id: string; relationships: Record<string, { data: { id: string } | null }> } };

let counter = 0;
async function newWorkspace(): Promise<string> {
  counter += 1;
  const made = await api<Doc>("POST", `/organizations/${fixture.emulator.organization}/workspaces`, { data: { type: "workspaces", attributes: { name: `ssh-runtime-${counter}` } } });
  expect(made.status).toBe(201);
  return made.doc.data.id;
}

async function liveKey(workspaceId: string): Promise<string | null> {
  const { doc } = await api<Doc>("GET", `/workspaces/${workspaceId}`);
  return doc.data.relationships["ssh-key"]?.data?.id ?? null;
}

async function setKeyDirectly(workspaceId: string, sshKeyId: string | null): Promise<void> {
  const res = await api("PATCH", `/workspaces/${workspaceId}/relationships/ssh-key`, { data: { type: "workspaces", attributes: { id: sshKeyId } } });
  expect(res.status).toBe(200);
}

const messageOf = async (p: Promise<unknown>): Promise<string> => String((await failureOf(p)).message);

describe("check (no request)", () => {
  test("accepts a workspace id and a key id, and drops the engine's __provider", async () => {
    const result = await assignment.check({}, { workspaceId: "ws-abc123", sshKeyId: KEY_A, __provider: "text" });
    expect(result).toEqual({ inputs: { workspaceId: "ws-abc123", sshKeyId: KEY_A }, failures: [] });
  });

  test("tolerates ids not known yet in a preview", async () => {
    const result = await assignment.check({}, { workspaceId: UNKNOWN, sshKeyId: UNKNOWN });
    expect(result.failures).toEqual([]);
  });

  const BAD: [string, Record<string, unknown>, { property: string; reason: string }[]][] = [
    ["a missing workspaceId", { sshKeyId: KEY_A }, [{ property: "workspaceId", reason: "is required" }]],
    ["a missing sshKeyId", { workspaceId: "ws-abc" }, [{ property: "sshKeyId", reason: "is required" }]],
    ["a workspace name for workspaceId", { workspaceId: "my-workspace", sshKeyId: KEY_A }, [{ property: "workspaceId", reason: 'must be a workspace id ("ws-…")' }]],
    ["a key name for sshKeyId", { workspaceId: "ws-abc", sshKeyId: "deploy-a" }, [{ property: "sshKeyId", reason: 'must be an SSH key id ("sshkey-…")' }]],
    ["an empty sshKeyId", { workspaceId: "ws-abc", sshKeyId: "" }, [{ property: "sshKeyId", reason: 'must be an SSH key id ("sshkey-…")' }]],
    ["a number for workspaceId", { workspaceId: 42, sshKeyId: KEY_A }, [{ property: "workspaceId", reason: "must be a string" }]],
    ["null for sshKeyId", { workspaceId: "ws-abc", sshKeyId: null }, [{ property: "sshKeyId", reason: "must be a string" }]],
    ["an unknown property", { workspaceId: "ws-abc", sshKeyId: KEY_A, sshKeyName: "deploy-a" }, [{ property: "sshKeyName", reason: "is not a property of SshKeyAssignment" }]],
    ["a list for sshKeyId", { workspaceId: "ws-abc", sshKeyId: [KEY_A] }, [{ property: "sshKeyId", reason: "must be a string" }]],
    ["a key id with a slash", { workspaceId: "ws-abc", sshKeyId: "sshkey-a/b" }, [{ property: "sshKeyId", reason: 'must be an SSH key id ("sshkey-…")' }]],
    ["a key id with a space", { workspaceId: "ws-abc", sshKeyId: "sshkey-a b" }, [{ property: "sshKeyId", reason: 'must be an SSH key id ("sshkey-…")' }]],
    ["a boolean for sshKeyId", { workspaceId: "ws-abc", sshKeyId: true }, [{ property: "sshKeyId", reason: "must be a string" }]],
    ["an unknown property named like the key's name", { workspaceId: "ws-abc", sshKeyId: KEY_A, keyName: "deploy-a" }, [{ property: "keyName", reason: "is not a property of SshKeyAssignment" }]],
    ["a number for workspaceId and a key name for sshKeyId, each named", { workspaceId: 42, sshKeyId: "deploy-a" }, [
      { property: "workspaceId", reason: "must be a string" }, { property: "sshKeyId", reason: 'must be an SSH key id ("sshkey-…")' },
    ]],
  ];
  test.each(BAD)("refuses %s, naming the property and the rule", async (_what, inputs, failures) => {
    const result = await assignment.check({}, inputs);
    expect(result.failures).toEqual(failures);
    expect(requestsMade()).toEqual([]);
  });
});

describe("diff (no request)", () => {
  const olds = { workspaceId: "ws-abc", sshKeyId: KEY_A, __assignedSshKeyId: KEY_A };
  test.each([
    ["the same inputs", { workspaceId: "ws-abc", sshKeyId: KEY_A }, { changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] }],
    ["another key: an update", { workspaceId: "ws-abc", sshKeyId: KEY_B },
      { changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: [{ path: "sshKeyId", kind: "update", replace: false }] }],
    ["a key not known yet: an update", { workspaceId: "ws-abc", sshKeyId: UNKNOWN },
      { changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: [{ path: "sshKeyId", kind: "update", replace: false }] }],
    ["another workspace: a replacement, assigned there first", { workspaceId: "ws-def", sshKeyId: KEY_A },
      { changes: true, replaces: ["workspaceId"], deleteBeforeReplace: false, detailedDiff: [{ path: "workspaceId", kind: "update", replace: true }] }],
    ["a workspace not known yet: a replacement", { workspaceId: UNKNOWN, sshKeyId: KEY_A },
      { changes: true, replaces: ["workspaceId"], deleteBeforeReplace: false, detailedDiff: [{ path: "workspaceId", kind: "update", replace: true }] }],
    ["another workspace and another key: a replacement that also changes the key", { workspaceId: "ws-def", sshKeyId: KEY_B },
      { changes: true, replaces: ["workspaceId"], deleteBeforeReplace: false, detailedDiff: [
        { path: "workspaceId", kind: "update", replace: true }, { path: "sshKeyId", kind: "update", replace: false },
      ] }],
  ])("%s", async (_what, news, expected) => {
    expect(await assignment.diff("ws-abc", olds, news)).toEqual(expected);
    expect(requestsMade()).toEqual([]);
  });

  test("a key removed outside Pulumi (refreshed to null) is an update that adds the key back", async () => {
    expect(await assignment.diff("ws-abc", { ...olds, sshKeyId: null }, { workspaceId: "ws-abc", sshKeyId: KEY_A }))
      .toEqual({ changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: [{ path: "sshKeyId", kind: "add", replace: false }] });
  });

  test("a key not known yet, after a refresh found none, is an update at sshKeyId (an unknown is never an add)", async () => {
    expect(await assignment.diff("ws-abc", { ...olds, sshKeyId: null }, { workspaceId: "ws-abc", sshKeyId: UNKNOWN }))
      .toEqual({ changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: [{ path: "sshKeyId", kind: "update", replace: false }] });
  });
});

describe("create, read, update, delete", () => {
  test("create assigns with one request; the id is the workspace id", async () => {
    const ws = await newWorkspace();
    fixture.emulator.clearRequests();
    const created = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    expect(created).toEqual({ id: ws, outs: { workspaceId: ws, sshKeyId: KEY_A, __assignedSshKeyId: KEY_A, __creation: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    expect(requestsMade()).toEqual([`PATCH /api/v2/workspaces/${ws}/relationships/ssh-key`]);
    expect(await liveKey(ws)).toBe(KEY_A);
  });

  test("read is one request; unchanged, it returns the same inputs", async () => {
    const ws = await newWorkspace();
    const { outs } = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    fixture.emulator.clearRequests();
    const read = await assignment.read(ws, outs);
    expect(read).toEqual({ id: ws, props: outs, inputs: { workspaceId: ws, sshKeyId: KEY_A } });
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws}`]);
  });

  test("read reports another key, or none, as the input, and keeps which key this resource assigned", async () => {
    const ws = await newWorkspace();
    const { outs } = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    await setKeyDirectly(ws, KEY_B);
    const other = await assignment.read(ws, outs);
    expect(other).toEqual({ id: ws, props: { workspaceId: ws, sshKeyId: KEY_B, __assignedSshKeyId: KEY_A, __creation: outs.__creation }, inputs: { workspaceId: ws, sshKeyId: KEY_B } });
    // The next diff is the update that restores the declared key.
    expect((await assignment.diff(ws, other.props ?? {}, { workspaceId: ws, sshKeyId: KEY_A })).changes).toBe(true);
    await setKeyDirectly(ws, null);
    const none = await assignment.read(ws, other.props);
    expect(none.inputs).toEqual({ workspaceId: ws, sshKeyId: null });
    expect(none.props?.__assignedSshKeyId).toBe(KEY_A);
  });

  test("read of a workspace deleted outside Pulumi says the resource is gone", async () => {
    const ws = await newWorkspace();
    const { outs } = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    expect((await api("DELETE", `/workspaces/${ws}`)).status).toBe(204);
    expect(await assignment.read(ws, outs)).toEqual({ id: "" });
  });

  test("update assigns the new key with one request", async () => {
    const ws = await newWorkspace();
    const { outs } = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    fixture.emulator.clearRequests();
    const updated = await assignment.update(ws, outs, { workspaceId: ws, sshKeyId: KEY_B });
    expect(updated).toEqual({ outs: { workspaceId: ws, sshKeyId: KEY_B, __assignedSshKeyId: KEY_B, __creation: outs.__creation } });
    expect(requestsMade()).toEqual([`PATCH /api/v2/workspaces/${ws}/relationships/ssh-key`]);
    expect(await liveKey(ws)).toBe(KEY_B);
  });

  test("delete reads, then unassigns the key this resource assigned: two requests", async () => {
    const ws = await newWorkspace();
    const { outs } = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    fixture.emulator.clearRequests();
    await assignment.delete(ws, outs);
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws}`, `PATCH /api/v2/workspaces/${ws}/relationships/ssh-key`]);
    expect(await liveKey(ws)).toBeNull();
  });

  test("delete leaves another key assigned since, with a warning, and succeeds; even after a refresh recorded that key", async () => {
    const ws = await newWorkspace();
    const { outs } = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    await setKeyDirectly(ws, KEY_B);
    const refreshed = await assignment.read(ws, outs);
    fixture.emulator.clearRequests();
    await assignment.delete(ws, refreshed.props ?? {});
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws}`]);
    expect(await liveKey(ws)).toBe(KEY_B);
    expect(notesKept()).toContainEqual({
      severity: "warning",
      message: expect.stringContaining(`workspace "${ws}": the workspace now uses SSH key "${KEY_B}", not "${KEY_A}" that this resource assigned, so it was left assigned`),
    });
  });

  test("a replacement on the same workspace (create, then delete of the old) keeps the key the new one assigned", async () => {
    const ws = await newWorkspace();
    const old = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    fixture.emulator.clearRequests();
    await assignment.delete(ws, old.outs);
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws}`]);
    expect(await liveKey(ws)).toBe(KEY_A);
  });

  test("delete of a workspace already unassigned, or deleted, is one read and succeeds", async () => {
    const ws = await newWorkspace();
    const { outs } = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    await setKeyDirectly(ws, null);
    fixture.emulator.clearRequests();
    await assignment.delete(ws, outs);
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws}`]);
    expect((await api("DELETE", `/workspaces/${ws}`)).status).toBe(204);
    fixture.emulator.clearRequests();
    await assignment.delete(ws, outs);
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws}`]);
  });
});

describe("refusals name what to fix", () => {
  test("a key that does not exist (B4 answers 404): the message names sshKeyId; one read tells it from a missing workspace", async () => {
    const ws = await newWorkspace();
    fixture.emulator.clearRequests();
    const message = await messageOf(assignment.create({ workspaceId: ws, sshKeyId: "sshkey-doesnotexist0000" }));
    expect(message).toContain(`sshKeyId "sshkey-doesnotexist0000" was refused`);
    expect(message).toContain("no such SSH key in the workspace's organization");
    expect(fixture.emulator.requests().map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 404", "GET 200"]);
    expect(await liveKey(ws)).toBeNull();
  });

  test("an update to a key that does not exist is refused the same way, and leaves the key assigned before", async () => {
    const ws = await newWorkspace();
    const { outs } = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    const message = await messageOf(assignment.update(ws, outs, { workspaceId: ws, sshKeyId: "sshkey-doesnotexist0000" }));
    expect(message).toContain(`sshKeyId "sshkey-doesnotexist0000" was refused`);
    expect(message).toContain("no such SSH key in the workspace's organization");
    expect(await liveKey(ws)).toBe(KEY_A);
  });

  test("a key of another organization is refused the same way", async () => {
    const ws = await newWorkspace();
    const message = await messageOf(assignment.create({ workspaceId: ws, sshKeyId: OTHER_ORG_KEY }));
    expect(message).toContain(`sshKeyId "${OTHER_ORG_KEY}" was refused`);
  });

  test("a 422 from the service also names sshKeyId", async () => {
    const ws = await newWorkspace();
    fixture.emulator.setFaults({ script: [{ match: { method: "PATCH", path: "*/relationships/ssh-key" }, status: 422 }] });
    const message = await messageOf(assignment.create({ workspaceId: ws, sshKeyId: KEY_A }));
    expect(message).toContain(`sshKeyId "${KEY_A}" was refused`);
  });

  test("a workspace that does not exist: the message names workspaceId", async () => {
    const message = await messageOf(assignment.create({ workspaceId: "ws-doesnotexist000000", sshKeyId: KEY_A }));
    expect(message).toContain('workspaceId "ws-doesnotexist000000" does not exist, or the token may not read it');
  });

  test("a read-only token: the message says admin access on the workspace is missing, at create, update and delete", async () => {
    const ws = await newWorkspace();
    const { outs } = await assignment.create({ workspaceId: ws, sshKeyId: KEY_A });
    await configureWith(fixture.emulator.issueToken({ kind: "team", access: "read" }));
    for (const attempt of [
      () => assignment.create({ workspaceId: ws, sshKeyId: KEY_B }),
      () => assignment.update(ws, outs, { workspaceId: ws, sshKeyId: KEY_B }),
      () => assignment.delete(ws, outs),
    ]) {
      const message = await messageOf(attempt());
      expect(message).toMatch(/the SSH key was not (un)?assigned because the token may not change the workspace's settings/);
      expect(message).toContain("it needs admin access on the workspace");
    }
    expect(await liveKey(ws)).toBe(KEY_A);
  });

  test("a 403 from the service is the same permission message", async () => {
    const ws = await newWorkspace();
    fixture.emulator.setFaults({ script: [{ match: { method: "PATCH", path: "*/relationships/ssh-key" }, status: 403 }] });
    expect(await messageOf(assignment.create({ workspaceId: ws, sshKeyId: KEY_A }))).toContain("it needs admin access on the workspace");
  });

  test("no message holds the token", async () => {
    const message = await messageOf(assignment.create({ workspaceId: "ws-doesnotexist000000", sshKeyId: KEY_A }));
    expect(message).not.toContain(fixture.emulator.token);
  });
});
