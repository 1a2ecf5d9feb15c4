/**
 * The auto-destroy inactivity duration rule, shared by workspaces and projects: a number greater
 * than 0 with at most four digits, followed by `d` (days) or `h` (hours).
 */
import { errors } from "../errors";

const DURATION_RE = /^(\d{1,4})([dh])$/;

export function assertActivityDuration(value: string, pointer: string): void {
  const m = DURATION_RE.exec(value);
  if (!m || Number(m[1]) <= 0) {
    throw errors.invalidAttribute(
      "auto-destroy-activity-duration must be a number greater than 0 with at most four digits, followed by d or h",
      pointer,
    );
  }
}
