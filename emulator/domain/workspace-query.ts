/**
 * A2 list semantics: search, filters and sorts exactly as the spec's table says.
 */
import { errors } from "../errors";
import type { Query } from "../query";
import type { WorkspaceRecord } from "../store/model";
import type { Store } from "../store/store";
import { tagNames } from "./flat-tags";
import { effectiveBindings } from "./tag-bindings";

type Pred = (ws: WorkspaceRecord) => boolean;

const SORTS = ["name", "current-run.created-at", "latest-change-at"] as const;

function wildcardToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`, "i");
}

function splitList(v: string): string[] {
  return v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** `filter[tagged][i][key|value]` grouped by `i`. */
function taggedFilters(q: Query): Array<{ key: string; value: string }> {
  const byIndex = new Map<string, { key?: string; value?: string }>();
  for (const k of q.keys()) {
    const m = /^filter\[tagged\]\[(\d+)\]\[(key|value)\]$/.exec(k);
    if (!m || m[1] === undefined) continue;
    const entry = byIndex.get(m[1]) ?? {};
    entry[m[2] as "key" | "value"] = q.get(k) ?? "";
    byIndex.set(m[1], entry);
  }
  const out: Array<{ key: string; value: string }> = [];
  for (const [i, e] of byIndex) {
    if (e.key === undefined || e.key === "") throw errors.badRequest(`filter[tagged][${i}][key] is required`);
    out.push({ key: e.key, value: e.value ?? "" });
  }
  return out;
}

export function filterWorkspaces(store: Store, list: WorkspaceRecord[], q: Query): WorkspaceRecord[] {
  const preds: Pred[] = [];
  const name = q.get("search[name]");
  if (name) {
    const needle = name.toLowerCase();
    preds.push((ws) => ws.name.toLowerCase().includes(needle));
  }
  const tags = q.get("search[tags]");
  if (tags) {
    const wanted = splitList(tags);
    preds.push((ws) => {
      const have = tagNames(store, ws);
      return wanted.every((t) => have.includes(t));
    });
  }
  const exclude = q.get("search[exclude-tags]");
  if (exclude) {
    const unwanted = splitList(exclude);
    preds.push((ws) => {
      const have = tagNames(store, ws);
      return !unwanted.some((t) => have.includes(t));
    });
  }
  const wildcard = q.get("search[wildcard-name]");
  if (wildcard) {
    const re = wildcardToRegExp(wildcard);
    preds.push((ws) => re.test(ws.name));
  }
  const project = q.get("filter[project][id]");
  if (project) preds.push((ws) => ws.projectId === project);
  const runStatus = q.get("filter[current-run][status]");
  if (runStatus) {
    const statuses = splitList(runStatus);
    preds.push((ws) => {
      const run = ws.currentRunId ? store.runs.get(ws.currentRunId) : undefined;
      return run !== undefined && statuses.includes(run.status);
    });
  }
  for (const f of taggedFilters(q)) {
    preds.push((ws) =>
      effectiveBindings(ws, store.projects.get(ws.projectId)).some((b) => b.key === f.key && (f.value === "" || b.value === f.value)),
    );
  }
  return preds.length === 0 ? list : list.filter((ws) => preds.every((p) => p(ws)));
}

/** Sorts by `sort` (a leading `-` reverses); the default is creation order, which is stable. */
export function sortWorkspaces(store: Store, list: WorkspaceRecord[], sort: string | undefined): WorkspaceRecord[] {
  if (sort === undefined || sort === "") return list;
  const desc = sort.startsWith("-");
  const field = desc ? sort.slice(1) : sort;
  if (!(SORTS as readonly string[]).includes(field)) throw errors.badRequest(`Invalid sort parameter: ${sort}`);
  const keyOf = (ws: WorkspaceRecord): string | null => {
    if (field === "name") return ws.name;
    if (field === "latest-change-at") {
      const sv = ws.currentStateVersionId ? store.stateVersions.get(ws.currentStateVersionId) : undefined;
      return sv?.createdAt ?? ws.createdAt;
    }
    const run = ws.currentRunId ? store.runs.get(ws.currentRunId) : undefined;
    return run?.createdAt ?? null;
  };
  const keyed = list.map((ws) => ({ ws, k: keyOf(ws) }));
  keyed.sort((a, b) => {
    // Workspaces without a value sort last ascending (and therefore first descending).
    if (a.k === null || b.k === null) return a.k === b.k ? a.ws.seq - b.ws.seq : a.k === null ? 1 : -1;
    if (a.k < b.k) return -1;
    if (a.k > b.k) return 1;
    return a.ws.seq - b.ws.seq;
  });
  const sorted = keyed.map((x) => x.ws);
  return desc ? sorted.reverse() : sorted;
}
