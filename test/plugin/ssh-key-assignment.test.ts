// What the provider plugin asks of the SshKeyAssignment runtime beyond the dynamic lifecycle, against an
// in-process emulator: the outputs a create or an update will have (known exactly where the apply will
// certainly produce them, UNKNOWN elsewhere, without a request), and the adoption of a workspace's key
// by import id, after which the program's declaration shows no change and destroy unassigns the key.
import { isUnknown, UNKNOWN, type Props } from "../../provider/runtime/lifecycle";
import * as assignment from "../../provider/runtime/kinds/ssh-key-assignment";
import { failureOf } from "../support/failure";
import { useRuntimeEmulator } from "../support/runtime-emulator";

const KEY_A = "sshkey-previewaaaaaaaa01";
const KEY_B = "sshkey-previewbbbbbbbb02";

const fixture = useRuntimeEmulator({
  emulator: { fixtures: { organizations: [{ name: "example-org", sshKeys: [{ id: KEY_A, name: "deploy-a" }, { id: KEY_B, name: "deploy-b" }] }] } },
});
const { requestsMade } = fixture;

type Doc = { data: { id: string; relationships: Record<string, { data: { id: string } | null }> } };

let counter = 0;
async function newWorkspace(): Promise<{ id: string; name: string }> {
  counter += 1;
  const name = `ssh-import-${counter}`;
  const made = await fixture.api<Doc>("POST", `/organizations/${fixture.emulator.organization}/workspaces`, { data: { type: "workspaces", attributes: { name } } });
  expect(made.status).toBe(201);
  return { id: made.doc.data.id, name };
}

async function liveKey(workspaceId: string): Promise<string | null> {
  const { doc } = await fixture.api<Doc>("GET", `/workspaces/${workspaceId}`);
  return doc.data.relationships["ssh-key"]?.data?.id ?? null;
}

async function setKeyDirectly(workspaceId: string, sshKeyId: string | null): Promise<void> {
  const res = await fixture.api("PATCH", `/workspaces/${workspaceId}/relationships/ssh-key`, { data: { type: "workspaces", attributes: { id: sshKeyId } } });
  expect(res.status).toBe(200);
}

/** The keys a preview leaves UNKNOWN, and the known part, which the real outputs must hold exactly. */
function splitPreview(preview: Props): { unknown: string[]; known: Props } {
  const unknown = Object.keys(preview).filter((k) => isUnknown(preview[k])).sort();
  const known = Object.fromEntries(Object.entries(preview).filter(([, v]) => !isUnknown(v)));
  return { unknown, known };
}

function pick(outs: Props, keys: string[]): Props {
  return Object.fromEntries(keys.map((k) => [k, outs[k]]));
}

describe("previewCreate", () => {
  test("knows the workspace and the key; the creation id is drawn by the create; no request", async () => {
    expect(await assignment.previewCreate({ workspaceId: "ws-abc", sshKeyId: KEY_A, __owner: "x" }))
      .toEqual({ workspaceId: "ws-abc", sshKeyId: KEY_A, __assignedSshKeyId: KEY_A, __creation: UNKNOWN });
    expect(requestsMade()).toEqual([]);
  });

  test("ids not known yet leave exactly their outputs unknown", async () => {
    expect(await assignment.previewCreate({ workspaceId: UNKNOWN, sshKeyId: KEY_A }))
      .toEqual({ workspaceId: UNKNOWN, sshKeyId: KEY_A, __assignedSshKeyId: KEY_A, __creation: UNKNOWN });
    expect(await assignment.previewCreate({ workspaceId: "ws-abc", sshKeyId: UNKNOWN }))
      .toEqual({ workspaceId: "ws-abc", sshKeyId: UNKNOWN, __assignedSshKeyId: UNKNOWN, __creation: UNKNOWN });
    expect(requestsMade()).toEqual([]);
  });

  test("is exact: every output it knows is what the create produces, over a key assigned before", async () => {
    const { id } = await newWorkspace();
    await setKeyDirectly(id, KEY_B);
    const news = { workspaceId: id, sshKeyId: KEY_A };
    const preview = await assignment.previewCreate(news);
    const created = await assignment.create(news);
    const { unknown, known } = splitPreview(preview);
    expect(unknown).toEqual(["__creation"]);
    expect(pick(created.outs, Object.keys(known))).toEqual(known);
    expect(Object.keys(created.outs).sort()).toEqual(Object.keys(preview).sort());
  });
});

describe("previewUpdate", () => {
  const olds = { workspaceId: "ws-abc", sshKeyId: KEY_A, __assignedSshKeyId: KEY_A, __creation: "c-1" };

  test("knows every output: the new key, on the same workspace, from the same creation; no request", async () => {
    expect(await assignment.previewUpdate("ws-abc", olds, { workspaceId: "ws-abc", sshKeyId: KEY_B }))
      .toEqual({ workspaceId: "ws-abc", sshKeyId: KEY_B, __assignedSshKeyId: KEY_B, __creation: "c-1" });
    expect(requestsMade()).toEqual([]);
  });

  test("a key not known yet leaves the key's outputs unknown", async () => {
    expect(await assignment.previewUpdate("ws-abc", olds, { workspaceId: "ws-abc", sshKeyId: UNKNOWN }))
      .toEqual({ workspaceId: "ws-abc", sshKeyId: UNKNOWN, __assignedSshKeyId: UNKNOWN, __creation: "c-1" });
  });

  test("is exact: the update produces every output it announced, after a refresh found another key", async () => {
    const { id } = await newWorkspace();
    const created = await assignment.create({ workspaceId: id, sshKeyId: KEY_A });
    await setKeyDirectly(id, null);
    const refreshed = (await assignment.read(id, created.outs)).props ?? {};
    const news = { workspaceId: id, sshKeyId: KEY_B };
    const preview = await assignment.previewUpdate(id, refreshed, news);
    expect(preview).toEqual((await assignment.update(id, refreshed, news)).outs);
  });
});

describe("importById", () => {
  test("adopts the key assigned outside Pulumi, by workspace id, with one read", async () => {
    const { id } = await newWorkspace();
    await setKeyDirectly(id, KEY_A);
    fixture.emulator.clearRequests();
    expect(await assignment.importById(id, {})).toEqual({
      id,
      props: { workspaceId: id, sshKeyId: KEY_A, __assignedSshKeyId: KEY_A, __creation: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      inputs: { workspaceId: id, sshKeyId: KEY_A },
    });
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${id}`]);
  });

  test("adopts it by <organization>/<workspace name>, with one read", async () => {
    const { id, name } = await newWorkspace();
    await setKeyDirectly(id, KEY_B);
    fixture.emulator.clearRequests();
    const imported = await assignment.importById(`${fixture.emulator.organization}/${name}`, {});
    expect(imported).toMatchObject({ id, props: { workspaceId: id, sshKeyId: KEY_B, __assignedSshKeyId: KEY_B }, inputs: { workspaceId: id, sshKeyId: KEY_B } });
    expect(requestsMade()).toEqual([`GET /api/v2/organizations/${fixture.emulator.organization}/workspaces/${name}`]);
  });

  test("after import, the declared inputs check and diff as no change, and a refresh returns them unchanged", async () => {
    const { id } = await newWorkspace();
    await setKeyDirectly(id, KEY_A);
    const imported = await assignment.importById(id, {});
    if (imported === undefined) throw new Error("nothing imported");
    const checked = await assignment.check({}, imported.inputs);
    expect(checked.failures).toEqual([]);
    expect(await assignment.diff(imported.id, imported.props, checked.inputs))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    expect(await assignment.read(imported.id, imported.props)).toEqual({ id, props: imported.props, inputs: imported.inputs });
  });

  test("destroy after import unassigns the key, as for a key this resource assigned (a read, the unassign)", async () => {
    const { id } = await newWorkspace();
    await setKeyDirectly(id, KEY_A);
    const imported = await assignment.importById(id, {});
    fixture.emulator.clearRequests();
    await assignment.remove(id, imported?.props ?? {});
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${id}`, `PATCH /api/v2/workspaces/${id}/relationships/ssh-key`]);
    expect(await liveKey(id)).toBeNull();
  });

  test("a workspace without a key, or none at all, has nothing to import", async () => {
    const { id } = await newWorkspace();
    fixture.emulator.clearRequests();
    expect(await assignment.importById(id, {})).toBeUndefined();
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${id}`]);
    expect(await assignment.importById("ws-doesnotexist000000", {})).toBeUndefined();
    expect(await assignment.importById(`${fixture.emulator.organization}/no-such-workspace`, {})).toBeUndefined();
  });

  test("an address that serves no API fails the import, naming the address, rather than finding nothing", async () => {
    await fixture.configureWith(undefined, { "wsbridge:address": `${fixture.emulator.url}/not-the-api` });
    for (const importId of ["ws-abc123", `${fixture.emulator.organization}/some-workspace`]) {
      const error = await failureOf(assignment.importById(importId, {}));
      expect(error.message).toContain(`${fixture.emulator.url}/not-the-api does not serve the API (GET /api/v2/ping answered 404), so a workspace not found there is not known to be missing`);
    }
  });

  test.each(["my-workspace", KEY_A, "org/name/extra", "org/", "org/work space", ""])(
    "a malformed import id (%j) fails naming the accepted formats, with no request",
    async (importId) => {
      const error = await failureOf(assignment.importById(importId, {}));
      expect(error.message).toBe(
        `SshKeyAssignment: cannot import ${JSON.stringify(importId)}: an import id is "ws-<id>" (the workspace id) or "<organization>/<workspace name>".`,
      );
      expect(requestsMade()).toEqual([]);
    },
  );
});
