/**
 * C11–C13. Data retention policy (self-managed edition only). On the hosted edition the endpoints answer
 * 404; that is reported as UnsupportedEditionError so users are not told their workspace is missing.
 */
import {
  dataRetentionPolicyBody, dataRetentionPolicyDocument, toDataRetentionPolicy, validateDataRetentionPolicyInput,
  type DataRetentionPolicy, type DataRetentionPolicyInput,
} from "../documents/data-retention";
import { NotFoundError, UnsupportedEditionError } from "../errors";
import { seg, type Edition, type Requester } from "../requester";
import { requireId } from "./common";

const policyPath = (workspaceId: string) => `/api/v2/workspaces/${seg(workspaceId)}/relationships/data-retention-policy`;
const FEATURE = "The data retention policy";

/** Runs a call; a 404 on a hosted server becomes UnsupportedEditionError. */
async function selfManagedOnly<T>(edition: () => Promise<Edition>, known: Edition | undefined, call: () => Promise<T>): Promise<T> {
  if (known === "hosted") throw new UnsupportedEditionError(FEATURE, "hosted", "self-managed");
  try {
    return await call();
  } catch (err) {
    if (err instanceof NotFoundError && known === undefined && (await edition().catch(() => undefined)) === "hosted") {
      throw new UnsupportedEditionError(FEATURE, "hosted", "self-managed");
    }
    throw err;
  }
}

export interface EditionSource {
  /** The configured edition, if any. */
  configured: Edition | undefined;
  detect: () => Promise<Edition>;
}

/** C11. The workspace's policy, or the organization default when none is set (see `target`). */
export async function readDataRetentionPolicy(core: Requester, ed: EditionSource, workspaceId: string): Promise<DataRetentionPolicy> {
  requireId("readDataRetentionPolicy", "workspaceId", workspaceId);
  return selfManagedOnly(ed.detect, ed.configured, async () => {
    const res = await core.request({ method: "GET", path: policyPath(workspaceId) });
    return toDataRetentionPolicy(core.parse(dataRetentionPolicyDocument, res).data);
  });
}

/** C12. Creates or replaces the policy; setting a value is idempotent. */
export async function setDataRetentionPolicy(
  core: Requester, ed: EditionSource, workspaceId: string, policy: DataRetentionPolicyInput,
): Promise<DataRetentionPolicy> {
  requireId("setDataRetentionPolicy", "workspaceId", workspaceId);
  validateDataRetentionPolicyInput("setDataRetentionPolicy", policy);
  return selfManagedOnly(ed.detect, ed.configured, async () => {
    const res = await core.request({ method: "POST", path: policyPath(workspaceId), body: dataRetentionPolicyBody(policy), idempotent: true });
    // The docs disagree on whether a body comes back (research/api.md §8): read it when it does not.
    if (res.body === undefined) return readDataRetentionPolicy(core, ed, workspaceId);
    return toDataRetentionPolicy(core.parse(dataRetentionPolicyDocument, res).data);
  });
}

/** C13. Back to the organization default. */
export async function deleteDataRetentionPolicy(core: Requester, ed: EditionSource, workspaceId: string): Promise<void> {
  requireId("deleteDataRetentionPolicy", "workspaceId", workspaceId);
  await selfManagedOnly(ed.detect, ed.configured, () => core.request({ method: "DELETE", path: policyPath(workspaceId) }));
}
