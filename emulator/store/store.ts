/**
 * The store interface the route handlers use, and its in-memory implementation. Tables are keyed
 * by id and keep insertion order; workspaces also have an index by organization and name.
 * Handlers validate first and write last, so a failed request never leaves half its changes.
 */
import type {
  AgentPoolRecord,
  FlatTagRecord,
  ModuleVersionRecord,
  OAuthClientRecord,
  OAuthTokenRecord,
  OrganizationRecord,
  ProjectRecord,
  RegistryModuleRecord,
  RunRecord,
  SshKeyRecord,
  State,
  StateVersionRecord,
  TeamRecord,
  TeamWorkspaceRecord,
  TokenRecord,
  UserRecord,
  WorkspaceRecord,
} from "./model";

export interface Table<T extends { id: string }> {
  get(id: string): T | undefined;
  put(record: T): void;
  delete(id: string): boolean;
  all(): T[];
  filter(pred: (r: T) => boolean): T[];
  find(pred: (r: T) => boolean): T | undefined;
  readonly size: number;
}

export interface Store {
  readonly organizations: Table<OrganizationRecord>;
  readonly users: Table<UserRecord>;
  readonly teams: Table<TeamRecord>;
  readonly teamWorkspaces: Table<TeamWorkspaceRecord> & { of(teamId: string, workspaceId: string): TeamWorkspaceRecord | undefined };
  readonly tokens: Table<TokenRecord>;
  readonly projects: Table<ProjectRecord>;
  readonly workspaces: Table<WorkspaceRecord>;
  readonly tags: Table<FlatTagRecord>;
  readonly sshKeys: Table<SshKeyRecord>;
  readonly agentPools: Table<AgentPoolRecord>;
  readonly oauthClients: Table<OAuthClientRecord>;
  readonly oauthTokens: Table<OAuthTokenRecord>;
  readonly registryModules: Table<RegistryModuleRecord>;
  readonly moduleVersions: Table<ModuleVersionRecord>;
  readonly stateVersions: Table<StateVersionRecord>;
  readonly runs: Table<RunRecord>;
  /** Site settings and defaults that are not records. */
  readonly settings: {
    engineVersions: string[];
    defaultGlobalRemoteState: boolean;
    defaultOrganization: string;
    defaultToken: string;
  };
  workspaceByName(organization: string, name: string): WorkspaceRecord | undefined;
  /** Workspaces of an organization in creation order. */
  workspacesOf(organization: string): WorkspaceRecord[];
  nextSeq(): number;
  /** A JSON-serializable copy of everything. */
  snapshot(): State;
}

/** The team's access to the workspace, if it has one (the service allows one per team and workspace). */
export function teamWorkspaceOf(store: Store, teamId: string, workspaceId: string): TeamWorkspaceRecord | undefined {
  return store.teamWorkspaces.of(teamId, workspaceId);
}

class MapTable<T extends { id: string }> implements Table<T> {
  protected readonly map = new Map<string, T>();
  constructor(initial: T[] = []) {
    for (const r of initial) this.map.set(r.id, r);
  }
  get(id: string): T | undefined {
    return this.map.get(id);
  }
  put(record: T): void {
    this.map.set(record.id, record);
  }
  delete(id: string): boolean {
    return this.map.delete(id);
  }
  all(): T[] {
    return [...this.map.values()];
  }
  filter(pred: (r: T) => boolean): T[] {
    const out: T[] = [];
    for (const r of this.map.values()) if (pred(r)) out.push(r);
    return out;
  }
  find(pred: (r: T) => boolean): T | undefined {
    for (const r of this.map.values()) if (pred(r)) return r;
    return undefined;
  }
  get size(): number {
    return this.map.size;
  }
}

/**
 * Team access with an index by team and workspace: a team token's every workspace read checks it, so a
 * list of N workspaces was N scans of every grant (10,000 workspaces: minutes per listing).
 */
class TeamWorkspaceTable extends MapTable<TeamWorkspaceRecord> {
  private readonly byPair = new Map<string, TeamWorkspaceRecord>();
  constructor(initial: TeamWorkspaceRecord[] = []) {
    super();
    for (const g of initial) this.put(g);
  }
  private static key(teamId: string, workspaceId: string): string {
    return `${teamId}\u0000${workspaceId}`;
  }
  override put(record: TeamWorkspaceRecord): void {
    const old = this.map.get(record.id);
    if (old) this.byPair.delete(TeamWorkspaceTable.key(old.teamId, old.workspaceId));
    this.map.set(record.id, record);
    this.byPair.set(TeamWorkspaceTable.key(record.teamId, record.workspaceId), record);
  }
  override delete(id: string): boolean {
    const old = this.map.get(id);
    if (old) this.byPair.delete(TeamWorkspaceTable.key(old.teamId, old.workspaceId));
    return this.map.delete(id);
  }
  of(teamId: string, workspaceId: string): TeamWorkspaceRecord | undefined {
    return this.byPair.get(TeamWorkspaceTable.key(teamId, workspaceId));
  }
}

/** Workspaces with an index by organization and name, so A3/A6/A8/A10 and name checks are O(1). */
class WorkspaceTable extends MapTable<WorkspaceRecord> {
  private readonly byName = new Map<string, WorkspaceRecord>();
  private readonly byOrg = new Map<string, Map<string, WorkspaceRecord>>();
  constructor(initial: WorkspaceRecord[] = []) {
    super();
    for (const w of [...initial].sort((a, b) => a.seq - b.seq)) this.put(w);
  }
  override put(record: WorkspaceRecord): void {
    const old = this.map.get(record.id);
    if (old) this.byName.delete(`${old.organization}\u0000${old.name}`);
    if (old && old.organization !== record.organization) this.byOrg.get(old.organization)?.delete(old.id);
    this.map.set(record.id, record);
    this.byName.set(`${record.organization}\u0000${record.name}`, record);
    let org = this.byOrg.get(record.organization);
    if (!org) this.byOrg.set(record.organization, (org = new Map()));
    // Map.set on an existing key keeps its position, so the per-organization map stays in creation order.
    org.set(record.id, record);
  }
  override delete(id: string): boolean {
    const old = this.map.get(id);
    if (!old) return false;
    this.unindex(old);
    return this.map.delete(id);
  }
  private unindex(w: WorkspaceRecord): void {
    this.byName.delete(`${w.organization}\u0000${w.name}`);
    this.byOrg.get(w.organization)?.delete(w.id);
  }
  byOrgAndName(org: string, name: string): WorkspaceRecord | undefined {
    return this.byName.get(`${org}\u0000${name}`);
  }
  /** Creation order: records are inserted by increasing seq (fresh, or restored from a seq-sorted snapshot). */
  ofOrg(org: string): WorkspaceRecord[] {
    const m = this.byOrg.get(org);
    return m ? [...m.values()] : [];
  }
}

export class MemoryStore implements Store {
  readonly organizations: MapTable<OrganizationRecord>;
  readonly users: MapTable<UserRecord>;
  readonly teams: MapTable<TeamRecord>;
  readonly teamWorkspaces: TeamWorkspaceTable;
  readonly tokens: MapTable<TokenRecord>;
  readonly projects: MapTable<ProjectRecord>;
  readonly workspaces: WorkspaceTable;
  readonly tags: MapTable<FlatTagRecord>;
  readonly sshKeys: MapTable<SshKeyRecord>;
  readonly agentPools: MapTable<AgentPoolRecord>;
  readonly oauthClients: MapTable<OAuthClientRecord>;
  readonly oauthTokens: MapTable<OAuthTokenRecord>;
  readonly registryModules: MapTable<RegistryModuleRecord>;
  readonly moduleVersions: MapTable<ModuleVersionRecord>;
  readonly stateVersions: MapTable<StateVersionRecord>;
  readonly runs: MapTable<RunRecord>;
  readonly settings: Store["settings"];
  private seq: number;

  constructor(state: State) {
    this.seq = state.seq;
    this.settings = {
      engineVersions: [...state.engineVersions],
      defaultGlobalRemoteState: state.defaultGlobalRemoteState,
      defaultOrganization: state.defaultOrganization,
      defaultToken: state.defaultToken,
    };
    this.organizations = new MapTable(state.organizations);
    this.users = new MapTable(state.users);
    this.teams = new MapTable(state.teams);
    // State files written before team access existed have no such table.
    this.teamWorkspaces = new TeamWorkspaceTable(state.teamWorkspaces ?? []);
    this.tokens = new MapTable(state.tokens);
    this.projects = new MapTable(state.projects);
    this.workspaces = new WorkspaceTable(state.workspaces);
    this.tags = new MapTable(state.tags);
    this.sshKeys = new MapTable(state.sshKeys);
    this.agentPools = new MapTable(state.agentPools);
    this.oauthClients = new MapTable(state.oauthClients);
    this.oauthTokens = new MapTable(state.oauthTokens);
    this.registryModules = new MapTable(state.registryModules);
    this.moduleVersions = new MapTable(state.moduleVersions);
    this.stateVersions = new MapTable(state.stateVersions);
    this.runs = new MapTable(state.runs);
  }

  static empty(): MemoryStore {
    return new MemoryStore(emptyState());
  }

  workspaceByName(organization: string, name: string): WorkspaceRecord | undefined {
    return this.workspaces.byOrgAndName(organization, name);
  }

  workspacesOf(organization: string): WorkspaceRecord[] {
    return this.workspaces.ofOrg(organization);
  }

  nextSeq(): number {
    return ++this.seq;
  }

  snapshot(): State {
    return {
      schema: 1,
      seq: this.seq,
      engineVersions: [...this.settings.engineVersions],
      defaultGlobalRemoteState: this.settings.defaultGlobalRemoteState,
      defaultOrganization: this.settings.defaultOrganization,
      defaultToken: this.settings.defaultToken,
      organizations: this.organizations.all(),
      users: this.users.all(),
      teams: this.teams.all(),
      teamWorkspaces: this.teamWorkspaces.all(),
      tokens: this.tokens.all(),
      projects: this.projects.all(),
      workspaces: this.workspaces.all().sort((a, b) => a.seq - b.seq),
      tags: this.tags.all(),
      sshKeys: this.sshKeys.all(),
      agentPools: this.agentPools.all(),
      oauthClients: this.oauthClients.all(),
      oauthTokens: this.oauthTokens.all(),
      registryModules: this.registryModules.all(),
      moduleVersions: this.moduleVersions.all(),
      stateVersions: this.stateVersions.all(),
      runs: this.runs.all(),
    };
  }
}

export function emptyState(): State {
  return {
    schema: 1,
    seq: 0,
    engineVersions: [],
    defaultGlobalRemoteState: false,
    defaultOrganization: "",
    defaultToken: "",
    organizations: [],
    users: [],
    teams: [],
    teamWorkspaces: [],
    tokens: [],
    projects: [],
    workspaces: [],
    tags: [],
    sshKeys: [],
    agentPools: [],
    oauthClients: [],
    oauthTokens: [],
    registryModules: [],
    moduleVersions: [],
    stateVersions: [],
    runs: [],
  };
}
