/** Argument checks shared by the operation groups (go-tfe's `validStringID`). */
import { InvalidOptionsError } from "../errors";

/** Ids, names and versions go into paths: non-empty, no slash, no whitespace. */
export function requireId(operation: string, property: string, value: unknown): asserts value is string {
  if (typeof value !== "string" || value === "") throw new InvalidOptionsError(operation, property, "is required");
  if (!/^[^/\s]+$/.test(value)) throw new InvalidOptionsError(operation, property, `must not contain "/" or whitespace, got "${value}"`);
}

/** A non-empty list of ids (remote-state consumers, tags). */
export function requireIdList(operation: string, property: string, values: unknown): asserts values is string[] {
  if (!Array.isArray(values)) throw new InvalidOptionsError(operation, property, "must be a list");
  values.forEach((v, i) => requireId(operation, `${property}[${i}]`, v));
}
