import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  createWorkspace,
  startTestEmulator,
  uniqueName,
  workspaceBody,
  type Client,
  type Doc,
  type Reply,
  type TestEmulator,
  EDITIONS,
} from "../support/emulator-http";

const ORGANIZATION_ACCESS_KEYS = [
  "manage-policies",
  "manage-policy-overrides",
  "manage-run-tasks",
  "manage-workspaces",
  "manage-vcs-settings",
  "manage-agent-pools",
  "manage-providers",
  "manage-modules",
  "manage-projects",
  "read-projects",
  "read-workspaces",
  "manage-membership",
  "manage-teams",
  "manage-organization-access",
  "access-secret-teams",
];

function organizationAccess(granted: Record<string, boolean> = {}): Record<string, boolean> {
  return Object.fromEntries(ORGANIZATION_ACCESS_KEYS.map((k) => [k, granted[k] ?? false]));
}

const teamBody = (name: string, attributes: Record<string, unknown> = {}): Doc => ({ data: { type: "teams", attributes: { name, ...attributes } } });

function accessBody(teamId: string, wsId: string, attributes: Record<string, unknown>): Doc {
  return {
    data: {
      type: "team-workspaces",
      attributes,
      relationships: { workspace: { data: { type: "workspaces", id: wsId } }, team: { data: { type: "teams", id: teamId } } },
    },
  };
}

async function createTeam(api: Client, org: string, attributes: Record<string, unknown> = {}): Promise<Doc> {
  const r = await api.post(`/api/v2/organizations/${org}/teams`, teamBody(uniqueName("team"), attributes));
  if (r.status !== 201) throw new Error(`create team: ${r.status} ${r.text}`);
  return r.body.data;
}

async function grant(api: Client, teamId: string, wsId: string, attributes: Record<string, unknown>): Promise<Doc> {
  const r = await api.post("/api/v2/team-workspaces", accessBody(teamId, wsId, attributes));
  if (r.status !== 201) throw new Error(`grant: ${r.status} ${r.text}`);
  return r.body.data;
}

/** Generates the team's token through the API and returns a client that presents it. */
async function teamClient(api: Client, teamId: string): Promise<Client> {
  const r = await api.post(`/api/v2/teams/${teamId}/authentication-token`);
  if (r.status !== 201) throw new Error(`team token: ${r.status} ${r.text}`);
  return api.as(r.body.data.attributes.token);
}

/** A new team with the given access to one workspace, and its token. */
async function teamWith(api: Client, org: string, wsId: string, attributes: Record<string, unknown>): Promise<{ team: Doc; client: Client }> {
  const team = await createTeam(api, org);
  await grant(api, team.id, wsId, attributes);
  return { team, client: await teamClient(api, team.id) };
}

const lockPath = (id: string, action: string): string => `/api/v2/workspaces/${id}/actions/${action}`;
const settings = { data: { type: "workspaces", attributes: { description: "changed" } } };
const ids = (r: Reply): string[] => r.body.data.map((d: { id: string }) => d.id);

describe.each(EDITIONS)("teams, team access and team tokens in the %s edition", (edition) => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ edition });
  });
  afterAll(() => t.close());

  describe("teams", () => {
    it("creates a secret team with the organization access asked for, and shows it to its managers in full", async () => {
      const name = uniqueName("team");
      const r = await t.api.post(`/api/v2/organizations/${t.org}/teams`, teamBody(name, { "organization-access": { "manage-workspaces": true } }));
      expect(r.status).toBe(201);
      const id = r.body.data.id;
      expect(id).toMatch(/^team-[A-Za-z0-9]{16}$/);
      const expected = {
        id,
        type: "teams",
        attributes: {
          name,
          visibility: "secret",
          "sso-team-id": null,
          "allow-member-token-management": true,
          "organization-access": organizationAccess({ "manage-workspaces": true, "read-workspaces": true }),
          "users-count": 0,
          permissions: {
            "can-update-membership": true,
            "can-destroy": true,
            "can-update-organization-access": true,
            "can-update-api-token": true,
            "can-update-visibility": true,
          },
        },
        relationships: {
          organization: { data: { id: t.org, type: "organizations" } },
          "authentication-token": { meta: {}, links: { related: `/api/v2/teams/${id}/authentication-token` } },
          users: { data: [] },
        },
        links: { self: `/api/v2/teams/${id}` },
      };
      expect(r.body.data).toEqual(expected);
      const shown = await t.api.get(`/api/v2/teams/${id}`);
      expect(shown.status).toBe(200);
      expect(shown.body.data).toEqual(expected);
    });

    it("refuses a blank, malformed or taken name with 422 naming the attribute", async () => {
      const base = `/api/v2/organizations/${t.org}/teams`;
      const blank = await t.api.post(base, teamBody(""));
      expect(blank.status).toBe(422);
      expect(blank.body.errors[0]).toEqual({ status: "422", title: "invalid attribute", detail: "Name can't be blank", source: { pointer: "/data/attributes/name" } });
      const malformed = await t.api.post(base, teamBody("has space"));
      expect(malformed.status).toBe(422);
      expect(malformed.body.errors[0].source).toEqual({ pointer: "/data/attributes/name" });
      const team = await createTeam(t.api, t.org);
      const taken = await t.api.post(base, teamBody(team.attributes.name.toUpperCase()));
      expect(taken.status).toBe(422);
      expect(taken.body.errors[0]).toEqual({ status: "422", title: "invalid attribute", detail: "Name has already been taken", source: { pointer: "/data/attributes/name" } });
      const owners = await t.api.post(base, teamBody("owners"));
      expect(owners.body.errors[0].detail).toBe("Name has already been taken");
      const badVisibility = await t.api.post(base, teamBody(uniqueName("team"), { visibility: "public" }));
      expect(badVisibility.status).toBe(422);
      expect(badVisibility.body.errors[0].source).toEqual({ pointer: "/data/attributes/visibility" });
    });

    it("lists the organization's teams, the owners team first with the owners as members, paginated", async () => {
      const org = uniqueName("org");
      const owner = t.clientFor({ kind: "owner", organization: org, username: uniqueName("boss") });
      const a = await createTeam(owner, org);
      const b = await createTeam(owner, org, { visibility: "organization" });
      const all = await owner.get(`/api/v2/organizations/${org}/teams`);
      expect(all.status).toBe(200);
      expect(all.body.data.map((d: Doc) => d.attributes.name)).toEqual(["owners", a.attributes.name, b.attributes.name]);
      const owners = all.body.data[0];
      expect(owners.attributes["users-count"]).toBe(1);
      expect(owners.attributes.visibility).toBe("organization");
      expect(owners.attributes["organization-access"]).toEqual(Object.fromEntries(ORGANIZATION_ACCESS_KEYS.map((k) => [k, true])));
      expect(owners.attributes.permissions["can-destroy"]).toBe(false);
      expect(owners.relationships.users.data).toEqual([{ id: expect.stringMatching(/^user-/), type: "users" }]);
      expect(all.body.meta.pagination).toEqual({ "current-page": 1, "page-size": 20, "prev-page": null, "next-page": null, "total-pages": 1, "total-count": 3 });
      const second = await owner.get(`/api/v2/organizations/${org}/teams?page[number]=2&page[size]=2`);
      expect(ids(second)).toEqual([b.id]);
      expect(second.body.meta.pagination["total-count"]).toBe(3);
      const named = await owner.get(`/api/v2/organizations/${org}/teams?filter[names]=${a.attributes.name},nope`);
      expect(ids(named)).toEqual([a.id]);
    });

    it("hides secret teams from other members of the organization, and team management from everyone but owners", async () => {
      const secret = await createTeam(t.api, t.org);
      const visible = await createTeam(t.api, t.org, { visibility: "organization" });
      const member = t.clientFor({ kind: "team", access: "read" });
      expect((await member.get(`/api/v2/teams/${secret.id}`)).status).toBe(404);
      const shown = await member.get(`/api/v2/teams/${visible.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body.data.attributes.permissions).toEqual({
        "can-update-membership": false,
        "can-destroy": false,
        "can-update-organization-access": false,
        "can-update-api-token": false,
        "can-update-visibility": false,
      });
      const listed = ids(await member.get(`/api/v2/organizations/${t.org}/teams?page[size]=100`));
      expect(listed).toContain(visible.id);
      expect(listed).not.toContain(secret.id);
      expect((await member.post(`/api/v2/organizations/${t.org}/teams`, teamBody(uniqueName("team")))).status).toBe(404);
      expect((await member.patch(`/api/v2/teams/${visible.id}`, teamBody("renamed"))).status).toBe(404);
      expect((await member.delete(`/api/v2/teams/${visible.id}`)).status).toBe(404);
      expect((await member.post(`/api/v2/teams/${visible.id}/authentication-token`)).status).toBe(404);
      const stranger = t.clientFor({ kind: "owner", organization: uniqueName("org") });
      expect((await stranger.get(`/api/v2/teams/${visible.id}`)).status).toBe(404);
      expect((await stranger.get(`/api/v2/organizations/${t.org}/teams`)).status).toBe(404);
    });

    it("lets the organization token manage teams as an owner does", async () => {
      const orgToken = t.clientFor({ kind: "organization" });
      const team = await createTeam(orgToken, t.org);
      expect((await orgToken.patch(`/api/v2/teams/${team.id}`, { data: { type: "teams", attributes: { visibility: "organization" } } })).status).toBe(200);
      expect((await orgToken.delete(`/api/v2/teams/${team.id}`)).status).toBe(204);
    });

    it("updates name, visibility and organization access, merging the access key by key", async () => {
      const team = await createTeam(t.api, t.org, { "organization-access": { "manage-modules": true } });
      const name = uniqueName("renamed");
      const r = await t.api.patch(`/api/v2/teams/${team.id}`, {
        data: { type: "teams", attributes: { name, visibility: "organization", "organization-access": { "manage-vcs-settings": true } } },
      });
      expect(r.status).toBe(200);
      expect(r.body.data.attributes.name).toBe(name);
      expect(r.body.data.attributes.visibility).toBe("organization");
      expect(r.body.data.attributes["organization-access"]).toEqual(organizationAccess({ "manage-modules": true, "manage-vcs-settings": true }));
      const bad = await t.api.patch(`/api/v2/teams/${team.id}`, {
        data: { type: "teams", attributes: { "organization-access": { "manage-projects": true } } },
      });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].source).toEqual({ pointer: "/data/attributes/organization-access/manage-workspaces" });
      expect((await t.api.get(`/api/v2/teams/${team.id}`)).body.data.attributes["organization-access"]["manage-projects"]).toBe(false);
    });

    it("deletes a team with 204, but refuses the owners team with 403", async () => {
      const team = await createTeam(t.api, t.org);
      const r = await t.api.delete(`/api/v2/teams/${team.id}`);
      expect(r.status).toBe(204);
      expect(r.text).toBe("");
      expect((await t.api.get(`/api/v2/teams/${team.id}`)).status).toBe(404);
      expect((await t.api.delete(`/api/v2/teams/${team.id}`)).status).toBe(404);
      const list = await t.api.get(`/api/v2/organizations/${t.org}/teams?filter[names]=owners`);
      const ownersId = list.body.data[0].id;
      const refused = await t.api.delete(`/api/v2/teams/${ownersId}`);
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0]).toEqual({ status: "403", title: "forbidden", detail: "The owners team cannot be deleted" });
      expect((await t.api.get(`/api/v2/teams/${ownersId}`)).status).toBe(200);
    });
  });

  describe("team access to workspaces", () => {
    it("adds write access with the permissions the level stands for", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const team = await createTeam(t.api, t.org);
      const r = await t.api.post("/api/v2/team-workspaces", accessBody(team.id, ws.id, { access: "write" }));
      expect(r.status).toBe(201);
      const id = r.body.data.id;
      expect(id).toMatch(/^tws-[A-Za-z0-9]{16}$/);
      expect(r.body.data).toEqual({
        id,
        type: "team-workspaces",
        attributes: {
          access: "write",
          runs: "apply",
          variables: "write",
          "state-versions": "write",
          "sentinel-mocks": "read",
          "workspace-locking": true,
          "run-tasks": false,
        },
        relationships: {
          team: { data: { id: team.id, type: "teams" }, links: { related: `/api/v2/teams/${team.id}` } },
          workspace: {
            data: { id: ws.id, type: "workspaces" },
            links: { related: `/api/v2/organizations/${t.org}/workspaces/${ws.attributes.name}` },
          },
        },
        links: { self: `/api/v2/team-workspaces/${id}` },
      });
      expect((await t.api.get(`/api/v2/team-workspaces/${id}`)).body.data).toEqual(r.body.data);
    });

    it("takes custom permissions only with custom access, over the documented defaults", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const custom = await grant(t.api, (await createTeam(t.api, t.org)).id, ws.id, { access: "custom", "state-versions": "read-outputs" });
      expect(custom.attributes).toEqual({
        access: "custom",
        runs: "read",
        variables: "none",
        "state-versions": "read-outputs",
        "sentinel-mocks": "none",
        "workspace-locking": false,
        "run-tasks": false,
      });
      const plan = await grant(t.api, (await createTeam(t.api, t.org)).id, ws.id, { access: "plan", runs: "apply", "workspace-locking": true });
      expect(plan.attributes).toEqual({
        access: "plan",
        runs: "plan",
        variables: "read",
        "state-versions": "read",
        "sentinel-mocks": "none",
        "workspace-locking": false,
        "run-tasks": false,
      });
      const updated = await t.api.patch(`/api/v2/team-workspaces/${plan.id}`, { data: { attributes: { access: "custom", "workspace-locking": true } } });
      expect(updated.status).toBe(200);
      expect(updated.body.data.attributes).toEqual({ ...plan.attributes, access: "custom", "workspace-locking": true });
    });

    it("refuses a bad access value and a second access for the same team with 422", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const team = await createTeam(t.api, t.org);
      const bad = await t.api.post("/api/v2/team-workspaces", accessBody(team.id, ws.id, { access: "owner" }));
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].source).toEqual({ pointer: "/data/attributes/access" });
      const badRuns = await t.api.post("/api/v2/team-workspaces", accessBody(team.id, ws.id, { access: "custom", runs: "destroy" }));
      expect(badRuns.status).toBe(422);
      expect(badRuns.body.errors[0].source).toEqual({ pointer: "/data/attributes/runs" });
      await grant(t.api, team.id, ws.id, { access: "read" });
      const twice = await t.api.post("/api/v2/team-workspaces", accessBody(team.id, ws.id, { access: "admin" }));
      expect(twice.status).toBe(422);
      expect(twice.body.errors[0]).toEqual({
        status: "422",
        title: "invalid attribute",
        detail: "Team has already been taken",
        source: { pointer: "/data/relationships/team/data/id" },
      });
    });

    it("answers 404 for a workspace or team the caller cannot see, and to a caller who does not administer the workspace", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const team = await createTeam(t.api, t.org);
      expect((await t.api.post("/api/v2/team-workspaces", accessBody(team.id, "ws-unknown", { access: "read" }))).status).toBe(404);
      expect((await t.api.post("/api/v2/team-workspaces", accessBody("team-unknown", ws.id, { access: "read" }))).status).toBe(404);
      const otherOrg = uniqueName("org");
      const stranger = t.clientFor({ kind: "owner", organization: otherOrg });
      const foreignTeam = await createTeam(stranger, otherOrg);
      expect((await t.api.post("/api/v2/team-workspaces", accessBody(foreignTeam.id, ws.id, { access: "read" }))).status).toBe(404);
      expect((await stranger.post("/api/v2/team-workspaces", accessBody(foreignTeam.id, ws.id, { access: "read" }))).status).toBe(404);
      const visible = await createTeam(t.api, t.org, { visibility: "organization" });
      const writer = t.clientFor({ kind: "team", access: "lock" });
      expect((await writer.post("/api/v2/team-workspaces", accessBody(visible.id, ws.id, { access: "read" }))).status).toBe(404);
      // A workspace admin may not hand out access to a secret team it cannot see.
      const admin = t.clientFor({ kind: "team", access: "admin" });
      expect((await admin.post("/api/v2/team-workspaces", accessBody(team.id, ws.id, { access: "read" }))).status).toBe(404);
      expect((await admin.post("/api/v2/team-workspaces", accessBody(visible.id, ws.id, { access: "read" }))).status).toBe(201);
      const missing = await t.api.post("/api/v2/team-workspaces", { data: { type: "team-workspaces", attributes: { access: "read" } } });
      expect(missing.status).toBe(422);
      expect(missing.body.errors[0].source).toEqual({ pointer: "/data/relationships/workspace/data/id" });
    });

    it("lists a workspace's team access, everything to admins and a team's own to it; 404 without the workspace filter", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const a = await teamWith(t.api, t.org, ws.id, { access: "read" });
      const b = await teamWith(t.api, t.org, ws.id, { access: "admin" });
      const list = `/api/v2/team-workspaces?filter[workspace][id]=${ws.id}`;
      const all = await t.api.get(list);
      expect(all.status).toBe(200);
      expect(all.body.data.map((g: Doc) => g.relationships.team.data.id)).toEqual([a.team.id, b.team.id]);
      // Without page parameters the service returns everything on one page.
      expect(all.body.meta.pagination).toMatchObject({ "page-size": 2, "total-count": 2, "total-pages": 1 });
      const own = await a.client.get(list);
      expect(own.body.data.map((g: Doc) => g.relationships.team.data.id)).toEqual([a.team.id]);
      expect((await a.client.get(`/api/v2/team-workspaces/${all.body.data[1].id}`)).status).toBe(404);
      expect((await b.client.get(list)).body.data).toHaveLength(2);
      expect(ids(await t.api.get(`${list}&page[size]=1&page[number]=2`))).toEqual([all.body.data[1].id]);
      const unfiltered = await t.api.get("/api/v2/team-workspaces");
      expect(unfiltered.status).toBe(404);
      expect(unfiltered.body.errors[0]).toEqual({ status: "404", title: "not found" });
      expect((await t.api.get("/api/v2/team-workspaces?filter[workspace][id]=ws-unknown")).status).toBe(404);
    });

    it("lets a read team read the workspace but answers 404 to its lock and settings change", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const { client } = await teamWith(t.api, t.org, ws.id, { access: "read" });
      expect((await client.get(`/api/v2/workspaces/${ws.id}`)).status).toBe(200);
      expect((await client.post(lockPath(ws.id, "lock"))).status).toBe(404);
      expect((await client.patch(`/api/v2/workspaces/${ws.id}`, settings)).status).toBe(404);
      const other = await createWorkspace(t.api, t.org, uniqueName());
      expect((await client.get(`/api/v2/workspaces/${other.id}`)).status).toBe(404);
    });

    it("reports exactly read permissions on the workspace to a read team's token", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const { client } = await teamWith(t.api, t.org, ws.id, { access: "read" });
      const r = await client.get(`/api/v2/workspaces/${ws.id}`);
      expect(r.body.data.attributes.permissions).toEqual({
        "can-update": false,
        "can-destroy": false,
        "can-queue-run": false,
        "can-read-run": true,
        "can-read-variable": true,
        "can-update-variable": false,
        "can-read-state-versions": true,
        "can-read-state-outputs": true,
        "can-create-state-versions": false,
        "can-queue-apply": false,
        "can-lock": false,
        "can-unlock": false,
        "can-force-unlock": false,
        "can-read-settings": true,
        "can-manage-tags": false,
        "can-manage-run-tasks": false,
        "can-force-delete": false,
        "can-manage-assessments": false,
        "can-manage-ephemeral-workspaces": false,
        "can-read-assessment-results": true,
        "can-queue-destroy": false,
      });
    });

    it("lets a plan team queue plans but not applies or locks, and a custom team lock only with workspace-locking", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const plan = await teamWith(t.api, t.org, ws.id, { access: "plan" });
      const p = (await plan.client.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes.permissions;
      expect([p["can-queue-run"], p["can-queue-apply"], p["can-lock"], p["can-update"]]).toEqual([true, false, false, false]);
      expect((await plan.client.post(lockPath(ws.id, "lock"))).status).toBe(404);
      const custom = await teamWith(t.api, t.org, ws.id, { access: "custom", runs: "apply", "workspace-locking": true });
      const c = (await custom.client.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes.permissions;
      expect([c["can-queue-run"], c["can-queue-apply"], c["can-lock"], c["can-update"]]).toEqual([true, true, true, false]);
      expect((await custom.client.post(lockPath(ws.id, "lock"))).status).toBe(200);
    });

    it("lets a write team lock as itself; another team's unlock gets 409 naming the team", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const writer = await teamWith(t.api, t.org, ws.id, { access: "write" });
      const locked = await writer.client.post(lockPath(ws.id, "lock"), { reason: "team lock" });
      expect(locked.status).toBe(200);
      expect(locked.body.data.relationships["locked-by"].data).toEqual({ id: writer.team.id, type: "teams" });
      expect((await writer.client.patch(`/api/v2/workspaces/${ws.id}`, settings)).status).toBe(404);
      const other = await teamWith(t.api, t.org, ws.id, { access: "write" });
      const r = await other.client.post(lockPath(ws.id, "unlock"));
      expect(r.status).toBe(409);
      expect(r.body.errors[0]).toEqual({
        status: "409",
        title: "conflict",
        detail: `Unable to unlock workspace. The workspace is locked by Team ${writer.team.id} and may not be unlocked except by them.`,
      });
      expect((await writer.client.post(lockPath(ws.id, "unlock"))).status).toBe(200);
    });

    it("makes a team admin of the one workspace it was given admin access to", async () => {
      const mine = await createWorkspace(t.api, t.org, uniqueName());
      const other = await createWorkspace(t.api, t.org, uniqueName());
      const { client } = await teamWith(t.api, t.org, mine.id, { access: "admin" });
      const r = await client.patch(`/api/v2/workspaces/${mine.id}`, settings);
      expect(r.status).toBe(200);
      expect(r.body.data.attributes.description).toBe("changed");
      expect((await client.patch(`/api/v2/workspaces/${other.id}`, settings)).status).toBe(404);
      expect((await client.post(lockPath(mine.id, "lock"))).status).toBe(200);
      expect((await client.post(lockPath(mine.id, "force-unlock"))).status).toBe(200);
      // Workspace admins manage the workspace's team access.
      const team = await createTeam(t.api, t.org, { visibility: "organization" });
      expect((await client.post("/api/v2/team-workspaces", accessBody(team.id, mine.id, { access: "read" }))).status).toBe(201);
      expect((await client.post("/api/v2/team-workspaces", accessBody(team.id, other.id, { access: "read" }))).status).toBe(404);
    });

    it("lets a manage-workspaces team create workspaces and administer all of them, and no team without it", async () => {
      const base = `/api/v2/organizations/${t.org}/workspaces`;
      const manager = await teamClient(t.api, (await createTeam(t.api, t.org, { "organization-access": { "manage-workspaces": true } })).id);
      const created = await manager.post(base, workspaceBody(uniqueName()));
      expect(created.status).toBe(201);
      const existing = await createWorkspace(t.api, t.org, uniqueName());
      expect((await manager.patch(`/api/v2/workspaces/${existing.id}`, settings)).status).toBe(200);
      const plain = await teamClient(t.api, (await createTeam(t.api, t.org)).id);
      expect((await plain.post(base, workspaceBody(uniqueName()))).status).toBe(404);
      expect((await plain.get(`/api/v2/workspaces/${existing.id}`)).status).toBe(404);
    });

    it("takes access away when it is updated down or removed", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const team = await createTeam(t.api, t.org);
      const g = await grant(t.api, team.id, ws.id, { access: "admin" });
      const client = await teamClient(t.api, team.id);
      expect((await client.patch(`/api/v2/workspaces/${ws.id}`, settings)).status).toBe(200);
      const down = await t.api.patch(`/api/v2/team-workspaces/${g.id}`, { data: { type: "team-workspaces", attributes: { access: "read" } } });
      expect(down.status).toBe(200);
      expect(down.body.data.attributes.access).toBe("read");
      expect((await client.patch(`/api/v2/workspaces/${ws.id}`, settings)).status).toBe(404);
      const removed = await t.api.delete(`/api/v2/team-workspaces/${g.id}`);
      expect(removed.status).toBe(204);
      expect((await client.get(`/api/v2/workspaces/${ws.id}`)).status).toBe(404);
      expect((await t.api.get(`/api/v2/team-workspaces/${g.id}`)).status).toBe(404);
    });
  });

  describe("team tokens", () => {
    it("generates a token that acts as the team, and a new one revokes the old one", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const team = await createTeam(t.api, t.org);
      await grant(t.api, team.id, ws.id, { access: "read" });
      const first = await t.api.post(`/api/v2/teams/${team.id}/authentication-token`);
      expect(first.status).toBe(201);
      const token = first.body.data.attributes.token;
      expect(first.body.data).toEqual({
        id: expect.stringMatching(/^at-[A-Za-z0-9]{16}$/),
        type: "authentication-tokens",
        attributes: {
          "created-at": expect.stringMatching(/Z$/),
          "last-used-at": null,
          description: null,
          token: expect.stringMatching(/^[0-9a-f]{14}\.atlasv1\.[0-9a-f]{64}$/),
          "expired-at": expect.stringMatching(/Z$/),
        },
        relationships: {
          team: { data: { id: team.id, type: "teams" } },
          "created-by": { data: { id: expect.stringMatching(/^user-/), type: "users" } },
        },
      });
      // Two years by default, as the service documents.
      const years = (Date.parse(first.body.data.attributes["expired-at"]) - Date.parse(first.body.data.attributes["created-at"])) / (365 * 24 * 3600 * 1000);
      expect(Math.round(years)).toBe(2);
      expect((await t.api.as(token).get(`/api/v2/workspaces/${ws.id}`)).status).toBe(200);
      const shown = await t.api.get(`/api/v2/teams/${team.id}/authentication-token`);
      expect(shown.status).toBe(200);
      expect(shown.body.data.id).toBe(first.body.data.id);
      expect(shown.body.data.attributes.token).toBeNull();
      const second = await t.api.post(`/api/v2/teams/${team.id}/authentication-token`, {
        data: { type: "authentication-token", attributes: { "expired-at": "2099-01-02T03:04:05Z" } },
      });
      expect(second.status).toBe(201);
      expect(second.body.data.attributes["expired-at"]).toBe("2099-01-02T03:04:05.000Z");
      expect(second.body.data.attributes.token).not.toBe(token);
      const old = await t.api.as(token).get(`/api/v2/workspaces/${ws.id}`);
      expect(old.status).toBe(401);
      expect(old.body.errors[0]).toEqual({ status: "401", title: "unauthorized" });
      expect((await t.api.as(second.body.data.attributes.token).get(`/api/v2/workspaces/${ws.id}`)).status).toBe(200);
    });

    it("refuses a token whose expiry has passed with 401", async () => {
      const team = await createTeam(t.api, t.org);
      const r = await t.api.post(`/api/v2/teams/${team.id}/authentication-token`, {
        data: { type: "authentication-token", attributes: { "expired-at": "2001-01-01T00:00:00Z" } },
      });
      expect(r.status).toBe(201);
      expect((await t.api.as(r.body.data.attributes.token).get(`/api/v2/organizations/${t.org}/workspaces`)).status).toBe(401);
    });

    it("deletes the token with 204, after which it gets 401, and a second delete gets 404", async () => {
      const team = await createTeam(t.api, t.org);
      const client = await teamClient(t.api, team.id);
      expect((await client.get(`/api/v2/organizations/${t.org}/workspaces`)).status).toBe(200);
      const r = await t.api.delete(`/api/v2/teams/${team.id}/authentication-token`);
      expect(r.status).toBe(204);
      expect((await client.get(`/api/v2/organizations/${t.org}/workspaces`)).status).toBe(401);
      expect((await t.api.delete(`/api/v2/teams/${team.id}/authentication-token`)).status).toBe(404);
      expect((await t.api.get(`/api/v2/teams/${team.id}/authentication-token`)).status).toBe(404);
    });

    it("ends a deleted team's tokens and access, while a lock it holds stays held by its id", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const { team, client } = await teamWith(t.api, t.org, ws.id, { access: "write" });
      expect((await client.post(lockPath(ws.id, "lock"))).status).toBe(200);
      expect((await t.api.delete(`/api/v2/teams/${team.id}`)).status).toBe(204);
      expect((await client.get(`/api/v2/workspaces/${ws.id}`)).status).toBe(401);
      expect((await t.api.get(`/api/v2/team-workspaces?filter[workspace][id]=${ws.id}`)).body.data).toEqual([]);
      const shown = await t.api.get(`/api/v2/workspaces/${ws.id}`);
      expect(shown.body.data.attributes.locked).toBe(true);
      expect(shown.body.data.relationships["locked-by"].data).toEqual({ id: team.id, type: "teams" });
      const unlock = await t.api.post(lockPath(ws.id, "unlock"));
      expect(unlock.status).toBe(409);
      expect(unlock.body.errors[0].detail).toContain(`is locked by Team ${team.id}`);
      expect((await t.api.post(lockPath(ws.id, "force-unlock"))).status).toBe(200);
    });

    it("makes the owners team's token act as an owner", async () => {
      const owners = (await t.api.get(`/api/v2/organizations/${t.org}/teams?filter[names]=owners`)).body.data[0];
      const client = await teamClient(t.api, owners.id);
      const ws = await createWorkspace(client, t.org, uniqueName());
      const locked = await client.post(lockPath(ws.id, "lock"));
      expect(locked.body.data.relationships["locked-by"].data).toEqual({ id: owners.id, type: "teams" });
      expect((await client.post(`/api/v2/organizations/${t.org}/teams`, teamBody(uniqueName("team")))).status).toBe(201);
      // Changing the organization's settings is for owners alone.
      expect((await client.patch(`/api/v2/organizations/${t.org}`, { data: { type: "organizations", attributes: {} } })).status).toBe(200);
      expect((await t.api.delete(`/api/v2/teams/${owners.id}/authentication-token`)).status).toBe(204);
    });

    it("leaves the emulator-issued tokens as they were", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const manager = t.clientFor({ kind: "team", access: "manage-all-workspaces", manageModules: true });
      expect((await manager.post(`/api/v2/organizations/${t.org}/workspaces`, workspaceBody(uniqueName()))).status).toBe(201);
      const scoped = t.clientFor({ kind: "team", access: "lock", workspaces: [ws.attributes.name] });
      const locked = await scoped.post(lockPath(ws.id, "lock"));
      expect(locked.status).toBe(200);
      expect(locked.body.data.relationships["locked-by"].data.type).toBe("teams");
      const team = (await t.api.get(`/api/v2/teams/${locked.body.data.relationships["locked-by"].data.id}`)).body.data;
      expect(team.attributes["organization-access"]).toEqual(organizationAccess());
      expect(team.attributes.visibility).toBe("organization");
    });
  });
});

describe("team access in a state file", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-teams-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(EDITIONS)("keeps teams, team access and team tokens across a restart in the %s edition", async (edition) => {
    const file = path.join(dir, `kept-${edition}.json`);
    const first = await startTestEmulator({ stateFile: file, edition });
    const ws = await createWorkspace(first.api, first.org, uniqueName());
    const { team, client } = await teamWith(first.api, first.org, ws.id, { access: "admin" });
    await first.close();
    const second = await startTestEmulator({ stateFile: file, edition });
    try {
      const again = second.api.as(client.token);
      expect((await again.patch(`/api/v2/workspaces/${ws.id}`, settings)).status).toBe(200);
      expect((await second.api.get(`/api/v2/teams/${team.id}`)).body.data.attributes.name).toBe(team.attributes.name);
    } finally {
      await second.close();
    }
  });

  it.each(EDITIONS)("removes a workspace's team access with the workspace, and a team's access and tokens with the team, in the %s edition", async (edition) => {
    const file = path.join(dir, `removed-${edition}.json`);
    const t = await startTestEmulator({ stateFile: file, edition });
    try {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const other = await createWorkspace(t.api, t.org, uniqueName());
      const team = await createTeam(t.api, t.org);
      const kept = await grant(t.api, team.id, other.id, { access: "read" });
      await grant(t.api, team.id, ws.id, { access: "read" });
      const stored = (): string[] => JSON.parse(fs.readFileSync(file, "utf8")).state.teamWorkspaces.map((g: Doc) => g.id);
      expect(stored()).toHaveLength(2);
      expect((await t.api.delete(`/api/v2/workspaces/${ws.id}`)).status).toBe(204);
      expect(stored()).toEqual([kept.id]);
      const token = (await teamClient(t.api, team.id)).token;
      const tokens = (): string[] => JSON.parse(fs.readFileSync(file, "utf8")).state.tokens.map((x: Doc) => x.id);
      expect(tokens()).toContain(token);
      expect((await t.api.delete(`/api/v2/teams/${team.id}`)).status).toBe(204);
      expect(stored()).toEqual([]);
      expect(tokens()).not.toContain(token);
    } finally {
      await t.close();
    }
  });

  it.each(EDITIONS)("loads a state file written before teams had access, organization access or an owners team in the %s edition", async (edition) => {
    const file = path.join(dir, `earlier-${edition}.json`);
    const first = await startTestEmulator({ stateFile: file, edition });
    const ws = await createWorkspace(first.api, first.org, uniqueName());
    const reader = first.emu.issueToken({ kind: "team", access: "read" });
    const manager = first.emu.issueToken({ kind: "team", access: "manage-all-workspaces", manageModules: true });
    await first.close();
    // Rewrite the file as an earlier emulator wrote it: no team-workspaces table, no owners team,
    // manage-all as an access level and module rights as a flag.
    const doc = JSON.parse(fs.readFileSync(file, "utf8"));
    delete doc.state.teamWorkspaces;
    doc.state.teams = doc.state.teams
      .filter((x: Doc) => !x.owners)
      .map((x: Doc) => ({
        id: x.id,
        name: x.name,
        organization: x.organization,
        access: x.organizationAccess["manage-workspaces"] ? "manage-all-workspaces" : x.access,
        workspaces: x.workspaces,
        projects: x.projects,
        manageModules: x.organizationAccess["manage-modules"],
      }));
    fs.writeFileSync(file, JSON.stringify(doc));

    const second = await startTestEmulator({ stateFile: file, edition });
    try {
      expect((await second.api.as(reader).get(`/api/v2/workspaces/${ws.id}`)).status).toBe(200);
      expect((await second.api.as(reader).post(lockPath(ws.id, "lock"))).status).toBe(404);
      const created = await second.api.as(manager).post(`/api/v2/organizations/${second.org}/workspaces`, workspaceBody(uniqueName()));
      expect(created.status).toBe(201);
      const teams = await second.api.get(`/api/v2/organizations/${second.org}/teams?page[size]=100`);
      const byName = (n: string): Doc => teams.body.data.find((x: Doc) => x.attributes.name === n);
      expect(byName("owners").attributes["users-count"]).toBe(1);
      const managerTeam = teams.body.data.find((x: Doc) => x.attributes["organization-access"]["manage-workspaces"] && x.attributes.name !== "owners");
      expect(managerTeam.attributes["organization-access"]).toEqual(
        organizationAccess({ "manage-workspaces": true, "read-workspaces": true, "manage-modules": true }),
      );
      const team = await createTeam(second.api, second.org);
      expect((await second.api.post("/api/v2/team-workspaces", accessBody(team.id, ws.id, { access: "read" }))).status).toBe(201);
      expect((await second.api.get(`/api/v2/team-workspaces?filter[workspace][id]=${ws.id}`)).body.data).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
