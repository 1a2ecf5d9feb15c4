// What the CLI shows of an operation, read from the Automation API's engine events: the steps of one
// resource type with the input keys whose values differ (dynamic providers cannot return a detailed
// diff, so the CLI shows exactly these), and the diagnostics it prints (debug ones are not shown).
import type { EngineEvent } from "@pulumi/pulumi/automation";

export interface Step {
  op: string;
  /** The resource's name in the program. */
  name: string;
  changedInputs: string[];
}

/** The steps other than "same" of resources of `type`, in the engine's order. */
export function stepsOf(events: EngineEvent[], type: string): Step[] {
  return events.flatMap((event) => {
    const m = event.resourcePreEvent?.metadata;
    if (!m || m.type !== type) return [];
    const before = m.old?.inputs ?? {};
    const after = m.new?.inputs ?? {};
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    keys.delete("__provider");
    const changedInputs = [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
    return [{ op: m.op, name: m.urn.split("::").pop() ?? "", changedInputs }];
  }).filter((s) => s.op !== "same");
}

/** The warnings and infos the CLI prints. */
export function notesOf(events: EngineEvent[]): string[] {
  return events.flatMap((e) => (e.diagnosticEvent && String(e.diagnosticEvent.severity) !== "debug" ? [e.diagnosticEvent.message.trim()] : []));
}
