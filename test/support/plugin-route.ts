// What the CLI shows of an operation on the plugin route, read from the Automation API's engine events:
// the provider plugin answers with a detailed diff, so each step carries the property paths that
// change (what `pulumi preview --diff` prints), and a preview's outputs are the plugin's plan.
import type { EngineEvent } from "@pulumi/pulumi/automation";

/** Pulumi's unknown value, as engine events spell it in a preview. */
export const UNKNOWN_IN_EVENTS = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface PlannedStep {
  op: string;
  /** The resource's name in the program. */
  name: string;
  /** `path: kind` for each entry of the detailed diff, sorted (`description: update`, `tagBindings.team: add`). */
  paths: string[];
  /** The keys the engine says change (`diffs`), sorted. */
  diffs: string[];
}

/** The steps other than "same" of resources of `type`, with their detailed diffs. */
export function plannedSteps(events: EngineEvent[], type: string): PlannedStep[] {
  return events.flatMap((event) => {
    const m = event.resourcePreEvent?.metadata;
    if (!m || m.type !== type || m.op === "same") return [];
    const detailed = (m.detailedDiff ?? {}) as Record<string, { diffKind: string }>;
    return [{
      op: m.op,
      name: m.urn.split("::").pop() ?? "",
      paths: Object.entries(detailed).map(([path, d]) => `${path}: ${d.diffKind}`).sort(),
      diffs: [...(m.diffs ?? [])].sort(),
    }];
  });
}

/** The outputs of the stack as the operation reported them (a preview: what it plans). */
export function stackOutputsOf(events: EngineEvent[]): Record<string, unknown> | undefined {
  let outputs: Record<string, unknown> | undefined;
  for (const event of events) {
    const m = event.resOutputsEvent?.metadata;
    if (m?.type === "pulumi:pulumi:Stack") outputs = m.new?.outputs;
  }
  return outputs;
}
