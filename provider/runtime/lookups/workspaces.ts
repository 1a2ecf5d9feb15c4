// The runtime of the workspace lookups (provider/dynamic/functions/workspaces.ts): check the arguments, resolve
// the settings, call the client, map the result. It runs in the program process, not in the dynamic
// provider's, and sends GET requests only (A2, A3, A4, and the ping that tells "not found" from
// "no API at this address"), so it is safe during `pulumi preview`.
import { z } from "zod";
import { MAX_TAG_KEY_LENGTH, MAX_TAG_VALUE_LENGTH, RULES, TAG_TEXT, brokenCheck, text } from "../../schemas/rules";
import type {
  GetWorkspaceArgs, ListWorkspacesArgs, WorkspaceLookupResult, WorkspaceLookupVcsRepo,
} from "../../schemas/workspace-lookups";
import type { Assert, Equals } from "../../schemas/type-equality";
import {
  NotFoundError, type TagBindingInput, type Workspace, type WorkspaceListOptions, type WsbridgeClient,
} from "../api";
import { InvalidLookupArgumentsError, lookupOrganization, parseLookupArgs, resolveLookupSettings, type ConfigSource, type LookupContext } from "./arguments";
import { assertServesTheApi } from "../serves-the-api";
import { linkedHtmlUrl, workspaceApiUrl } from "../urls";

export { InvalidLookupArgumentsError };
export type { ConfigSource, LookupContext };

/** {@link LookupContext} plus the page size of the list requests (1–100, default 100; tests page with less). */
export interface ListLookupContext extends LookupContext {
  pageSize?: number;
}

// ---- argument schemas -------------------------------------------------------------------------

// The value rules are rules.ts's; the lookups have always worded a few of them their own way.
const organization = text(RULES.organizationName);
const workspaceName = text(RULES.workspaceName);
const workspaceId = text(RULES.workspaceId, "must be 'ws-' followed by letters and digits");
// The API joins a tag list with commas, so a comma would silently split one tag into two.
const flatTag = z.string({ error: "must be a string" }).refine((t) => t.trim() !== "" && !t.includes(","), "must be a non-empty tag name without commas");
const flatTags = z.array(flatTag, { error: "must be an array of strings" });

export const getWorkspaceArgsSchema = z
  .strictObject({ organization: organization.optional(), name: workspaceName.optional(), id: workspaceId.optional() }, {
    error: (issue) => (issue.code === "invalid_type" ? "must be an object" : undefined),
  })
  .superRefine((a, ctx) => {
    if (a.id === undefined && a.name === undefined) {
      ctx.addIssue({ code: "custom", path: ["id"], message: "or name is required (give exactly one of them)" });
    } else if (a.id !== undefined && a.name !== undefined) {
      ctx.addIssue({ code: "custom", path: ["id"], message: "and name must not both be given (give exactly one of them)" });
    }
  });

export const listWorkspacesArgsSchema = z.strictObject({
  organization: organization.optional(),
  search: text(RULES.nonEmpty).optional(),
  // Workspace names hold only these characters, so anything else could never match.
  wildcardName: text(RULES.wildcardName).optional(),
  tags: flatTags.optional(),
  excludeTags: flatTags.optional(),
  projectId: text(RULES.projectId, "must be 'prj-' followed by letters and digits").optional(),
  // A filter names keys that exist, reserved ones included: the characters and lengths of tag keys, not their prefix rule.
  tagged: z.record(z.string(), z.string({ error: "must be a string" }), { error: "must be an object of key → value strings" }).superRefine((tagged, ctx) => {
    for (const [key, value] of Object.entries(tagged)) {
      if (key === "" || key.length > MAX_TAG_KEY_LENGTH || !TAG_TEXT.test(key)) {
        ctx.addIssue({ code: "custom", path: [], message: `key ${JSON.stringify(key)} must be 1 to ${MAX_TAG_KEY_LENGTH} letters, digits or _ . = + - @ :` });
      }
      if (brokenCheck(RULES.tagValue, value) !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `must be "" (any value) or up to ${MAX_TAG_VALUE_LENGTH} letters, digits or _ . = + - @ :` });
      }
    }
  }).optional(),
}, { error: (issue) => (issue.code === "invalid_type" ? "must be an object" : undefined) });

// Fail to compile if the documented argument types and the schemas ever describe different shapes.
export type GetWorkspaceArgsAgree = Assert<Equals<z.input<typeof getWorkspaceArgsSchema>, GetWorkspaceArgs>>;
export type ListWorkspacesArgsAgree = Assert<Equals<z.input<typeof listWorkspacesArgsSchema>, ListWorkspacesArgs>>;

// ---- lookups ------------------------------------------------------------------------------------

/** A3 (organization and name) or A4 (id). */
export async function getWorkspace(args: GetWorkspaceArgs, context?: LookupContext): Promise<WorkspaceLookupResult> {
  const lookup = "getWorkspace";
  const a = parseLookupArgs(lookup, getWorkspaceArgsSchema, args);
  const { client, defaultOrganization: fallback } = resolveLookupSettings(context);
  if (a.id !== undefined) {
    const workspace = await readOrExplain(client, `Workspace "${a.id}"`, () => client.readWorkspace(a.id ?? ""));
    // An organization given with an id is a claim about the workspace: check it rather than ignore it.
    if (a.organization !== undefined && workspace.organization !== a.organization) {
      throw new Error(`Workspace "${a.id}" belongs to organization "${workspace.organization}", not "${a.organization}"`);
    }
    return toLookupResult(workspace, client.address);
  }
  const org = lookupOrganization(lookup, a.organization, fallback, (name) => brokenCheck(RULES.organizationName, name)?.message);
  const name = a.name ?? "";
  return toLookupResult(await readOrExplain(client, `Workspace "${org}/${name}"`, () => client.readWorkspaceByName(org, name)), client.address);
}

/** A2, every page. */
export async function listWorkspaces(args: ListWorkspacesArgs, context?: ListLookupContext): Promise<WorkspaceLookupResult[]> {
  const lookup = "listWorkspaces";
  const a = parseLookupArgs(lookup, listWorkspacesArgsSchema, args ?? {});
  const { client, defaultOrganization: fallback } = resolveLookupSettings(context);
  const org = lookupOrganization(lookup, a.organization, fallback, (name) => brokenCheck(RULES.organizationName, name)?.message);
  const options: WorkspaceListOptions = {
    ...(a.search !== undefined && { search: a.search }),
    ...(a.wildcardName !== undefined && { wildcardName: a.wildcardName }),
    ...(a.tags !== undefined && a.tags.length > 0 && { tags: a.tags }),
    ...(a.excludeTags !== undefined && a.excludeTags.length > 0 && { excludeTags: a.excludeTags }),
    ...(a.projectId !== undefined && { projectId: a.projectId }),
    ...(a.tagged !== undefined && Object.keys(a.tagged).length > 0 && { tagged: taggedFilters(a.tagged) }),
    ...(context?.pageSize !== undefined && { pageSize: context.pageSize }),
  };
  const results: WorkspaceLookupResult[] = [];
  try {
    for await (const workspace of client.listWorkspaces(org, options)) results.push(toLookupResult(workspace, client.address));
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await assertServesTheApi(client);
    throw new Error(
      `Organization "${org}" was not found, or the token may not list its workspaces (the API answers 404 for both)`,
      { cause: error },
    );
  }
  return results;
}

/** `""` means "any value": the filter then names only the key. */
function taggedFilters(tagged: Record<string, string>): TagBindingInput[] {
  return Object.entries(tagged).map(([key, value]) => (value === "" ? { key } : { key, value }));
}

async function readOrExplain(client: WsbridgeClient, what: string, read: () => Promise<Workspace>): Promise<Workspace> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await assertServesTheApi(client);
    throw new Error(
      `${what} was not found: it does not exist, or the token may not see it (the API answers 404 for both; ` +
        "check the name or id, the organization, and the token's permissions)",
      { cause: error },
    );
  }
}


// ---- mapping ------------------------------------------------------------------------------------

function toLookupResult(w: Workspace, address: string): WorkspaceLookupResult {
  return {
    id: w.id,
    name: w.name,
    organization: w.organization,
    description: w.description,
    executionMode: w.executionMode,
    engineVersion: w.engineVersion,
    projectId: w.projectId,
    agentPoolId: w.agentPoolId,
    sshKeyId: w.sshKeyId,
    autoApply: w.autoApply,
    globalRemoteState: w.globalRemoteState,
    projectRemoteState: w.projectRemoteState ?? null,
    workingDirectory: w.workingDirectory === "" ? null : w.workingDirectory,
    tagNames: [...w.tagNames],
    locked: w.locked,
    resourceCount: w.resourceCount,
    vcsRepo: vcsRepoOf(w),
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    htmlUrl: linkedHtmlUrl(address, w),
    apiUrl: workspaceApiUrl(address, w.id),
  };
}

function vcsRepoOf(w: Workspace): WorkspaceLookupVcsRepo | null {
  if (w.vcsRepo === null) return null;
  const branch = w.vcsRepo.branch;
  // "" and absent both mean the repository's default branch (spec, VCS repository sub-object).
  return { identifier: w.vcsRepo.identifier ?? w.vcsRepoIdentifier, branch: branch === null || branch === "" ? null : branch };
}
