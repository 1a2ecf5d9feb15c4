// Resource names a Terraform user recognizes: each from the Terraform address of the object it takes
// over. The form (docs/adopt.md, "Leaving Terraform"): the module calls, then the resource's name, each
// with its instance key, joined by `-`, with the resource type left out (the Pulumi kind says it, and
// adopt's kind suffix tells the kinds apart, as it does for names made from workspace names):
//
//   tfe_workspace.app                        app
//   tfe_workspace.batch[0]                   batch-0
//   module.team["web"].tfe_workspace.ws      team-web-ws
//   module.a.module.b[2].tfe_workspace.x     a-b-2-x
//   tfe_workspace_settings.app               app (its consumers: app-consumers)
//
// A key's characters other than letters, digits, `_` and `-` become `_` (an empty key is `_`). Two addresses that give the same
// name are numbered by adopt's names.ts in the order of their full addresses, so every run names alike.
// CDKTF's addresses are its logical ids (`tfe_workspace.app_ABC123`): the name keeps the id whole.
import type { ModuleStep, TerraformInstance } from "./state";

/** The name an instance's address gives (before adopt makes names unique). */
export function nameOfAddress(instance: Pick<TerraformInstance, "module" | "name" | "key">): string {
  const parts = [...instance.module.flatMap(stepParts), ...stepParts({ name: instance.name, ...(instance.key === undefined ? {} : { key: instance.key }) })];
  return parts.join("-");
}

function stepParts(step: ModuleStep): string[] {
  return step.key === undefined ? [step.name] : [step.name, String(step.key).replace(/[^A-Za-z0-9_-]/g, "_") || "_"];
}
