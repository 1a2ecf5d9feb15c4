// check: the inputs' rules (schemas/workspace.ts), the organization default, and the read-only checks
// that need the server (the edition, what adoptExisting will take).
import { withFixedValues } from "../../../schemas/omission";
import { derivedSettingOverwrites, WORKSPACE_OMITTED, workspaceInputsSchema } from "../../../schemas/workspace";
import type { WsbridgeClient } from "../../api";
import { settingsProblem, sharedClient, withDefaultOrganization } from "../../config";
import { type CheckOutcome, isUnknown, type Props, userInputs, validate } from "../../lifecycle";
import { noteForTheUser } from "../../engine-log";
import { findByName } from "./read";
import { KIND, SET_INPUTS, type VcsRepoInput } from "./fields";
import { internalInputs, label, namedOutputsOf, ownerMarkerOf, urnOf } from "./state";

export async function check(olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  // A setting that cannot work fails the preview, naming it, before anything is planned.
  const problem = settingsProblem();
  if (problem !== undefined) throw new Error(problem);
  const { inputs: given, missing } = withDefaultOrganization(userInputs(news));
  // What the program leaves out means one thing, whatever the stack's history (WORKSPACE_OMITTED).
  const inputs = withOmissionsFilled(given);
  // Sets in one canonical order, so a reordered list is not an input change (the CLI shows input changes).
  for (const key of SET_INPUTS) {
    const list = inputs[key];
    if (Array.isArray(list) && !isUnknown(list) && list.every((v) => typeof v === "string")) inputs[key] = [...(list as string[])].sort();
  }
  const outcome = validate(workspaceInputsSchema, inputs, KIND);
  if (missing !== undefined) outcome.failures.push(missing);
  const creating = Object.keys(userInputs(olds)).length === 0;
  const repo = inputs.vcsRepo as Partial<VcsRepoInput> | undefined;
  const hadRepo = !creating && userInputs(olds).vcsRepo !== undefined;
  if (repo !== undefined && !isUnknown(repo) && !hadRepo && repo.oauthTokenId === undefined) {
    outcome.failures.push({
      property: "vcsRepo.oauthTokenId",
      reason: "is required when the repository is first connected (the service takes githubAppInstallationId only on update)",
    });
  }
  if (outcome.failures.length === 0) await checkAgainstTheServer(inputs, userInputs(olds), creating, outcome.failures, urnOf(news));
  if (inputs.operations !== undefined && outcome.failures.length === 0) {
    await noteForTheUser("warning", `${label(news)}: \`operations\` is deprecated by the service; use \`executionMode\` ("remote" for true, "local" for false).`, urnOf(news));
  }
  // The owner marker and the resource class's note of its outputs go on to create, unchanged.
  const marker = ownerMarkerOf(news);
  const named = namedOutputsOf(news);
  if (marker === undefined && named.length === 0) return outcome;
  return { inputs: { ...outcome.inputs, ...internalInputs(marker, named) }, failures: outcome.failures };
}

/**
 * The inputs with every fixed value the program leaves out filled in, and settingOverwrites derived
 * (an execution mode or agent pool left out is inherited): the state's inputs then show what the
 * workspace will hold, and a line removed from the program previews as the restore it is.
 */
export function withOmissionsFilled(inputs: Props): Props {
  const filled = withFixedValues(WORKSPACE_OMITTED, inputs);
  const overwrites = derivedSettingOverwrites(filled);
  return overwrites === undefined || isUnknown(filled.settingOverwrites) ? filled : { ...filled, settingOverwrites: overwrites };
}

/**
 * Read-only checks that need the server: the edition, and what a create with adoptExisting will take.
 * The edition is asked (one ping per process) only when `assessmentsEnabled` is about to be sent: on
 * create, or when its declared value changed. A preview with nothing changed sends nothing.
 */
export async function checkAgainstTheServer(
  inputs: Props, previous: Props, creating: boolean, failures: { property: string; reason: string }[], urn: string | undefined,
): Promise<void> {
  const assessmentsSent = creating || inputs.assessmentsEnabled !== previous.assessmentsEnabled;
  if (inputs.assessmentsEnabled !== undefined && !isUnknown(inputs.assessmentsEnabled) && assessmentsSent) {
    const edition = await editionOf(sharedClient());
    if (edition === "self-managed") {
      failures.push({ property: "assessmentsEnabled", reason: "is only available in the hosted edition; this server is self-managed" });
    }
  }
  if (creating && inputs.adoptExisting === true && typeof inputs.name === "string" && typeof inputs.organization === "string" &&
      !isUnknown(inputs.name) && !isUnknown(inputs.organization)) {
    const existing = await findByName(sharedClient(), inputs.organization, inputs.name);
    const what = `${KIND} "${inputs.organization}/${inputs.name}"`;
    await noteForTheUser("info", existing
      ? `${what} exists (${existing.id}): \`up\` will adopt it (adoptExisting) and apply the declared settings instead of creating one.`
      : `${what} does not exist yet: \`up\` will create it (adoptExisting has nothing to adopt).`, urn);
  }
}

export const editions = new WeakMap<WsbridgeClient, Promise<string>>();
export function editionOf(client: WsbridgeClient): Promise<string> {
  let edition = editions.get(client);
  if (!edition) editions.set(client, (edition = client.edition()));
  return edition;
}
