// The gate between Terraform's plan and its apply: the plan of the release (`terraform show -json
// <planfile>`) must forget every released object (the `forget` action of a `removed` block with
// `destroy = false`, or OpenTofu's default) and delete, replace or update none of them. A plan that
// would destroy what Pulumi now manages fails here, naming each address, before `terraform apply`
// touches the server. An object already forgotten with `state rm` (older versions, CDKTF) is in neither
// the plan's changes nor its prior state: that passes too.

/** What the plan does to one released address, when that is not a forget. */
export interface GateFinding {
  readonly address: string;
  /** `delete`, `replace`, `update`, `create`, `no-op` (still managed), or `missing` (not in the plan). */
  readonly action: string;
}

export class PlanUnreadableError extends Error {
  constructor(readonly source: string, readonly reason: string) {
    super(`${source}: ${reason}`);
    this.name = "PlanUnreadableError";
  }
}

/** The findings of `plan` (the JSON text of `terraform show -json <planfile>`) for the `released` instance addresses: empty when it may be applied. */
export function checkReleasePlan(text: string, source: string, released: readonly string[]): GateFinding[] {
  let plan: unknown;
  try {
    plan = JSON.parse(text);
  } catch {
    throw new PlanUnreadableError(source, "is not JSON: give `terraform show -json <planfile>` of the release's plan.");
  }
  if (typeof plan !== "object" || plan === null || !Array.isArray((plan as { resource_changes?: unknown }).resource_changes)) {
    const isState = typeof plan === "object" && plan !== null && ("values" in plan || "resources" in plan);
    throw new PlanUnreadableError(source, isState
      ? "is a state, not a plan: run `terraform plan -out=<planfile>`, then give `terraform show -json <planfile>`."
      : "has no `resource_changes`: give `terraform show -json <planfile>` of the release's plan.");
  }
  if ((plan as { errored?: unknown }).errored === true) {
    throw new PlanUnreadableError(source, "is the plan of a run that errored: fix the configuration, plan again, and give the new plan.");
  }
  const prior = priorAddresses((plan as { prior_state?: unknown }).prior_state);
  const actions = new Map<string, string>();
  for (const change of (plan as { resource_changes: unknown[] }).resource_changes) {
    if (typeof change !== "object" || change === null) continue;
    const { address, mode, change: planned } = change as { address?: unknown; mode?: unknown; change?: { actions?: unknown } };
    if (typeof address !== "string" || mode === "data") continue;
    actions.set(address, actionOf(planned?.actions));
  }
  const findings: GateFinding[] = [];
  for (const address of [...released].sort()) {
    const action = actions.get(address) ?? (prior !== undefined && !prior.has(address) ? "forgotten" : "missing");
    if (action !== "forget" && action !== "forgotten") findings.push({ address, action });
  }
  return findings;
}

/** The managed resource addresses of the plan's prior state (what Terraform held when it planned); undefined when it has none. */
function priorAddresses(prior: unknown): Set<string> | undefined {
  const root = (prior as { values?: { root_module?: unknown } } | null | undefined)?.values?.root_module;
  if (root === undefined) return undefined;
  const out = new Set<string>();
  const walk = (module: unknown): void => {
    const { resources, child_modules: children } = (module ?? {}) as { resources?: unknown; child_modules?: unknown };
    for (const r of Array.isArray(resources) ? resources : []) {
      const { address, mode } = (r ?? {}) as { address?: unknown; mode?: unknown };
      if (typeof address === "string" && mode !== "data") out.add(address);
    }
    for (const child of Array.isArray(children) ? children : []) walk(child);
  };
  walk(root);
  return out;
}

/** Terraform's action list as one word: `["delete","create"]` and `["create","delete"]` are a replace. */
function actionOf(list: unknown): string {
  const actions = Array.isArray(list) ? list.map(String) : [];
  if (actions.includes("delete") && actions.includes("create")) return "replace";
  return actions.length === 1 ? (actions[0] ?? "missing") : actions.join("+") || "missing";
}

/** The gate's verdict in sentences: one line per finding, and what to do. */
export function gateReport(findings: readonly GateFinding[]): string {
  if (findings.length === 0) return "The plan forgets every released object and changes none of them: Terraform may apply it.";
  const lines = findings.map((f) => `  ${f.address}: ${f.action === "missing" ? "not in the plan (still in the state, or the plan is of another configuration)" : `${f.action}, not forget`}`);
  return [
    `The plan must forget every object Pulumi took over, and ${findings.length === 1 ? "this one is" : `these ${findings.length} are`} not forgotten:`,
    ...lines,
    "Do not apply it: add the `removed` blocks adopt wrote (with `lifecycle { destroy = false }` where your version needs it), plan again, and run the gate on the new plan.",
  ].join("\n");
}
