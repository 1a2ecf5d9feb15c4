/**
 * Organization settings that clients write and read back but that change nothing else in the
 * emulator: one table gives each its wire name, rule and the service's default for an organization
 * created without it. Settings the emulator acts on (`email`, `allow-force-delete-workspaces`,
 * `default-execution-mode`) are typed fields of the record instead.
 *
 * The spec is silent on all of these, so each default and rule follows the official clients:
 * go-tfe's field types (`organization.go`) and the schema and acceptance tests of
 * terraform-provider-tfe (`resource_tfe_organization.go`, `resource_tfe_organization_test.go`).
 */
import { errors } from "../errors";
import type { Json } from "../jsonapi";
import type { OrganizationSettings, SettingValue } from "../store/model";

type Rule =
  | { kind: "boolean"; default: boolean }
  | { kind: "minutes"; default: null }
  | { kind: "enum"; values: readonly string[]; default: string }
  | { kind: "nullable-string"; default: null };

export const ORGANIZATION_SETTINGS: Readonly<Record<string, Rule>> = {
  // null until set: the provider's attributes are optional with no default and not computed, so a
  // value here would show as a change in every plan. Neither client bounds the number of minutes.
  "session-timeout": { kind: "minutes", default: null },
  "session-remember": { kind: "minutes", default: null },
  "collaborator-auth-policy": { kind: "enum", values: ["password", "two_factor_mandatory"], default: "password" },
  "cost-estimation-enabled": { kind: "boolean", default: false },
  "owners-team-saml-role-id": { kind: "nullable-string", default: null },
  "assessments-enforced": { kind: "boolean", default: false },
  "speculative-plan-management-enabled": { kind: "boolean", default: true },
  "user-tokens-enabled": { kind: "boolean", default: true },
  "stacks-enabled": { kind: "boolean", default: false },
  "enforce-hyok": { kind: "boolean", default: false },
  "max-ttl-enabled": { kind: "boolean", default: false },
  "send-passing-statuses-for-untriggered-speculative-plans": { kind: "boolean", default: false },
  // The provider's acceptance test reads true from an organization created without it.
  "aggregated-commit-status-enabled": { kind: "boolean", default: true },
};

export function defaultOrganizationSettings(): OrganizationSettings {
  const out: OrganizationSettings = {};
  for (const [wire, rule] of Object.entries(ORGANIZATION_SETTINGS)) out[wire] = rule.default;
  return out;
}

function checked(wire: string, rule: Rule, v: unknown): SettingValue {
  const pointer = `/data/attributes/${wire}`;
  switch (rule.kind) {
    case "boolean":
      if (typeof v !== "boolean") throw errors.invalidAttribute(`${wire} must be a boolean`, pointer);
      return v;
    case "minutes":
      if (typeof v !== "number" || !Number.isInteger(v)) {
        throw errors.invalidAttribute(`${wire} must be a whole number of minutes`, pointer);
      }
      return v;
    case "enum":
      if (typeof v !== "string" || !rule.values.includes(v)) {
        throw errors.invalidAttribute(`${wire} must be one of ${rule.values.map((x) => `"${x}"`).join(", ")}`, pointer);
      }
      return v;
    case "nullable-string":
      if (v !== null && typeof v !== "string") throw errors.invalidAttribute(`${wire} must be a string or null`, pointer);
      return v === "" ? null : v;
  }
}

/** The settings after a create or update document; throws 422 naming the attribute. */
export function applyOrganizationSettings(current: OrganizationSettings, attributes: Json): OrganizationSettings {
  const next = { ...defaultOrganizationSettings(), ...current };
  for (const [wire, rule] of Object.entries(ORGANIZATION_SETTINGS)) {
    const v = attributes[wire];
    if (v !== undefined) next[wire] = checked(wire, rule, v);
  }
  return next;
}
