// The fault campaign's moves, for either route: a program of N workspaces, `pulumi up` interrupted by
// kill -9 (of the CLI or of the provider process) or run against injected faults, and the check that
// the stack converged: every workspace of the program exists once on the server, the state holds
// exactly those, and a preview changes nothing and writes nothing.
import { execFileSync } from "node:child_process";
import type { FaultSettings } from "../../emulator";
import { createStack, emulatorStackConfig, repairFileBackend, type HarnessStack } from "../../scripts/lib/stack-harness";
import { belowApi, useEmulatorAndCli, type RealCliEmulator } from "./real-cli-stack";
import { testStackSecrets } from "./transit-keeper";

/** What differs between the two routes, for the campaign. */
export interface FaultRoute {
  /** Short, for stack and workspace names. */
  name: "dynamic" | "plugin";
  /** The Workspace resource's type in the state. */
  stateType: string;
  /** Whether a process's command line is this route's provider. */
  isProvider(args: string): boolean;
  /** Declares `count` workspaces named `<prefix>-<i>`. */
  declare(prefix: string, count: number): Promise<void>;
}

export const DYNAMIC_ROUTE: FaultRoute = {
  name: "dynamic",
  stateType: "pulumi-nodejs:dynamic/wsbridge:Workspace",
  isProvider: (args) => args.includes("dynamic-provider"),
  declare: async (prefix, count) => {
    const { Workspace } = await import("pulumi-wsbridge");
    for (let i = 0; i < count; i++) new Workspace(`ws-${i}`, { name: `${prefix}-${i}` });
  },
};

export const PLUGIN_ROUTE: FaultRoute = {
  name: "plugin",
  stateType: "wsbridge:index:Workspace",
  isProvider: (args) => args.includes("pulumi-resource-wsbridge"),
  declare: async (prefix, count) => {
    const { Workspace } = await import("@pulumi-wsbridge/wsbridge");
    for (let i = 0; i < count; i++) new Workspace(`ws-${i}`, { name: `${prefix}-${i}` });
  },
};

/** One line of the figures a campaign prints at its end. */
export interface CampaignFigure {
  scenario: string;
  workspaces: number;
  runs: number;
  faults: number;
  duplicates: number;
  orphans: number;
}

export const createPath = (org: string): string => `/api/v2/organizations/${org}/workspaces`;

interface Proc {
  pid: number;
  ppid: number;
  args: string;
}

function processes(): Proc[] {
  return execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] ?? "" }));
}

function descendants(all: Proc[], root: number): Proc[] {
  const out: Proc[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const p of all) if (p.ppid === parent) { out.push(p); queue.push(p.pid); }
  }
  return out;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The campaign's moves against one emulator and CLI, for one route. */
export class FaultCampaign {
  readonly figures: CampaignFigure[] = [];
  /** Provider processes whose CLI was killed: they may outlive it, so {@link endOrphans} ends them. */
  private readonly orphanedProviders: number[] = [];
  /** How many interrupted runs left a file backend that needed the repair of docs/resources/workspace.md, "Notes". */
  repairedBackends = 0;

  constructor(private readonly e2e: RealCliEmulator, readonly route: FaultRoute) {}

  stackOf(prefix: string, count: number): Promise<HarnessStack> {
    return createStack({
      cli: this.e2e.cli,
      projectName: `wsbridge-faults-${this.route.name}-${prefix}`,
      config: { ...emulatorStackConfig(this.e2e.emulator), "wsbridge:retryBudgetMs": { value: "60000" } },
      program: () => this.route.declare(prefix, count),
      ...(this.route === PLUGIN_ROUTE && { plugin: true }),
      secrets: testStackSecrets(),
    });
  }

  /** Every workspace of the organization whose name starts with the prefix (all pages). */
  async serverWorkspaces(prefix: string): Promise<Array<{ id: string; name: string }>> {
    const out: Array<{ id: string; name: string }> = [];
    for (let page = 1; ; page++) {
      const { doc: body } = await this.e2e.api<{ data: Array<{ id: string; attributes: { name: string } }>; meta: { pagination: { "next-page": number | null } } }>(
        "GET", `${belowApi(createPath(this.e2e.emulator.organization))}?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
      );
      out.push(...body.data.filter((w) => w.attributes.name.startsWith(`${prefix}-`)).map((w) => ({ id: w.id, name: w.attributes.name })));
      if (body.meta.pagination["next-page"] === null) return out;
    }
  }

  /** The workspaces the stack's state holds. The dynamic route keeps `name` among its named outputs too. */
  async stateWorkspaces(h: HarnessStack): Promise<Array<{ id: string; name: string }>> {
    const deployment = await h.stack.exportStack();
    const resources = (deployment.deployment as { resources?: Array<{ type: string; id?: string; outputs?: { name?: string } }> }).resources ?? [];
    return resources
      .filter((r) => r.type === this.route.stateType)
      .map((r) => ({ id: r.id ?? "", name: r.outputs?.name ?? "" }));
  }

  /** Converged: each program workspace once on the server, the state holds exactly those, preview is clean. */
  async expectConverged(h: HarnessStack, prefix: string, count: number): Promise<{ duplicates: number; orphans: number }> {
    const { e2e } = this;
    e2e.emulator.clearFaults();
    const server = await this.serverWorkspaces(prefix);
    const state = await this.stateWorkspaces(h);
    const names = server.map((w) => w.name).sort();
    const expected = Array.from({ length: count }, (_, i) => `${prefix}-${i}`).sort();
    const duplicates = names.length - new Set(names).size;
    const stateIds = new Set(state.map((w) => w.id));
    const orphans = server.filter((w) => !stateIds.has(w.id)).length;
    expect(duplicates).toBe(0);
    expect(orphans).toBe(0);
    expect(names).toEqual(expected);
    expect(state.map((w) => w.id).sort()).toEqual(server.map((w) => w.id).sort());
    e2e.emulator.clearRequests();
    const preview = await h.stack.preview();
    expect(preview.changeSummary).toEqual({ same: count + 1 });
    expect(e2e.writes()).toEqual([]);
    return { duplicates, orphans };
  }

  /** The `pulumi up` this test process started, and the provider process below it. */
  private ourUp(): { cli: Proc | undefined; provider: Proc | undefined } {
    const all = processes();
    const up = descendants(all, process.pid).find((p) => /\bpulumi\b.*\bup\b/.test(p.args) && !this.route.isProvider(p.args));
    const provider = up ? descendants(all, up.pid).find((p) => this.route.isProvider(p.args)) : undefined;
    return { cli: up, provider };
  }

  /** Starts `up`, waits until `afterCreates` creates were applied, kills the chosen process with SIGKILL. */
  async upKilledMidway(h: HarnessStack, which: "cli" | "provider", afterCreates: number): Promise<void> {
    const { e2e } = this;
    e2e.emulator.setFaults({ latencyMs: 40 });
    e2e.emulator.clearRequests();
    const running = h.stack.up().then(
      () => "finished",
      () => "failed",
    );
    const deadline = Date.now() + 120_000;
    for (;;) {
      const created = e2e.emulator.requests().filter((r) => r.method === "POST" && r.status === 201).length;
      const target = this.ourUp()[which];
      if (created >= afterCreates && target) {
        const provider = which === "cli" ? this.ourUp().provider : undefined;
        process.kill(target.pid, "SIGKILL");
        if (provider) this.orphanedProviders.push(provider.pid);
        break;
      }
      if (Date.now() > deadline) throw new Error("the up never reached the point to interrupt");
      await sleep(20);
    }
    expect(await running).toBe("failed");
    // An orphaned provider may still be finishing a create; the next run must cope with that too.
    e2e.emulator.clearFaults();
    if (which === "cli") {
      if (repairFileBackend(h.dir)) this.repairedBackends++;
      // A killed CLI leaves its lock on the stack, as a user would meet it: `pulumi cancel` releases it.
      await h.stack.cancel();
    }
  }

  /** Ends the provider processes a killed CLI left (call in an afterAll declared before the emulator's fixture). */
  endOrphans(): void {
    for (const pid of this.orphanedProviders) {
      try { process.kill(pid, "SIGKILL"); } catch { /* already gone */ }
    }
  }

  /** The campaign's figures as a table (the fault issue asked for them). */
  report(): string {
    return [
      `file backends repaired after kill -9: ${this.repairedBackends}`,
      "scenario | workspaces | runs | faults injected | duplicates | orphans",
      ...this.figures.map((f) => `${f.scenario} | ${f.workspaces} | ${f.runs} | ${f.faults} | ${f.duplicates} | ${f.orphans}`),
    ].join("\n");
  }
}

/** Workspaces per program: the kills need enough to interrupt; the fault cases run the fault issue's 50. */
const KILL_COUNT = 20;
const FAULT_COUNT = 50;
const CASE_TIMEOUT_MS = 10 * 60 * 1000;

/** A fault case: its name, its workspaces' prefix, and the faults to inject. */
export type FaultCase = readonly [scenario: string, prefix: string, faultsFor: (org: string) => FaultSettings];

export const FAULT_CASES = {
  cut: ["creates applied and then cut", "cut", (org) => ({ script: [{ match: { method: "POST", path: createPath(org) }, drop: "after", times: 5 }] })],
  gateway: ["creates applied and then answered 502", "gateway", (org) => ({ script: [{ match: { method: "POST", path: createPath(org) }, status: 502, afterApply: true, times: 5 }] })],
  shares: ["10% server errors and 5% dropped connections", "shares", () => ({ serverErrorRate: 0.1, dropRate: 0.05, seed: 11 })],
} satisfies Record<string, FaultCase>;

/**
 * The whole campaign for one route, as this file's tests: kill -9 of the CLI and of the provider
 * mid-up, then up again; then each fault case through one up and one destroy. Call at the top level.
 */
export function describeFaultCampaign(route: FaultRoute, faultCases: readonly FaultCase[]): void {
  // Declared before the fixture, so it runs before the fixture closes the emulator.
  afterAll(() => {
    campaign.endOrphans();
    if (campaign.figures.length > 0) console.log(campaign.report());
  });
  const e2e = useEmulatorAndCli({ quiet: true });
  const campaign = new FaultCampaign(e2e, route);

  describe("a run interrupted by kill -9 converges when run again", () => {
    test.each(["cli", "provider"] as const)("kill -9 of the %s mid-up, then up again", async (which) => {
      const prefix = `kill-${which}`;
      const h = await campaign.stackOf(prefix, KILL_COUNT);
      try {
        await campaign.upKilledMidway(h, which, KILL_COUNT / 4);
        const before = await campaign.serverWorkspaces(prefix);
        const known = new Set((await campaign.stateWorkspaces(h)).map((w) => w.id));
        // What the interruption left: objects on the server that the state does not know.
        const leftBehind = before.filter((w) => !known.has(w.id)).length;
        const again = await h.stack.up();
        expect(again.summary.result).toBe("succeeded");
        const result = await campaign.expectConverged(h, prefix, KILL_COUNT);
        campaign.figures.push({ scenario: `kill -9 ${which} mid-up (${leftBehind} unknown to the state)`, workspaces: KILL_COUNT, runs: 2, faults: 1, ...result });
        await h.stack.destroy();
        expect(await campaign.serverWorkspaces(prefix)).toEqual([]);
      } finally {
        await h.dispose();
      }
    }, CASE_TIMEOUT_MS);
  });

  describe("faults alone do not stop one up or one destroy", () => {
    test.each(faultCases)("%s", async (scenario, prefix, faultsFor) => {
      const h = await campaign.stackOf(prefix, FAULT_COUNT);
      try {
        e2e.emulator.clearRequests();
        e2e.emulator.setFaults(faultsFor(e2e.emulator.organization));
        const up = await h.stack.up();
        expect(up.summary.result).toBe("succeeded");
        const injected = e2e.emulator.requests().filter((r) => r.fault !== undefined).length;
        const result = await campaign.expectConverged(h, prefix, FAULT_COUNT);

        e2e.emulator.clearRequests();
        e2e.emulator.setFaults(faultsFor(e2e.emulator.organization));
        const destroy = await h.stack.destroy();
        expect(destroy.summary.result).toBe("succeeded");
        const injectedOnDestroy = e2e.emulator.requests().filter((r) => r.fault !== undefined).length;
        e2e.emulator.clearFaults();
        expect(await campaign.serverWorkspaces(prefix)).toEqual([]);
        expect(await campaign.stateWorkspaces(h)).toEqual([]);
        campaign.figures.push({ scenario, workspaces: FAULT_COUNT, runs: 2, faults: injected + injectedOnDestroy, ...result });
        // Every case must really have met its faults (a script that matched nothing proves nothing).
        expect(injected + injectedOnDestroy).toBeGreaterThan(0);
      } finally {
        await h.dispose();
      }
    }, CASE_TIMEOUT_MS);
  });
}
