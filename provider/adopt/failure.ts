// A failed run of `adopt`, as a sentence: what went wrong, where, what to do, and that nothing was
// written (discovery ends before any file is).
import {
  ApiError, MissingTokenError, NotFoundError, RateLimitedError, ServerError, TransportError, UnauthorizedError,
} from "../runtime/api";
import { UsageError } from "./arguments";
import { UnknownProjectError } from "./discover";
import { ForeignProjectError } from "./output";
import { UnwritableProgramError } from "./program/yaml-batch";
import { LanguageMismatchError } from "./folder";
import { StackUnreadableError } from "./stack";

const NOTHING_WRITTEN = "Nothing was written.";

/** `GET /api/v2/…`, without the query (page numbers say nothing to a reader). */
function request(error: ApiError): string {
  return `${error.method} ${error.path.replace(/\?.*$/, "")}`;
}

export function failureSentence(error: unknown, context: { address: string; organization: string }): string {
  const where = `${context.address}`;
  if (error instanceof UsageError || error instanceof UnknownProjectError || error instanceof ForeignProjectError ||
    error instanceof StackUnreadableError || error instanceof LanguageMismatchError) return error.message;
  if (error instanceof UnwritableProgramError) return `${error.message} ${NOTHING_WRITTEN}`;
  if (error instanceof MissingTokenError) {
    return `No API token for ${where}: pass --token, or set WSBRIDGE_TOKEN or TFE_TOKEN, or run \`terraform login\`. ${NOTHING_WRITTEN}`;
  }
  if (error instanceof UnauthorizedError) {
    return `${where} refused the token (401 Unauthorized on ${request(error)}): check --token, WSBRIDGE_TOKEN or TFE_TOKEN, and that the token has not expired. ${NOTHING_WRITTEN}`;
  }
  if (error instanceof NotFoundError && /\/organizations\/[^/]+\/(projects|workspaces)$/.test(error.path.replace(/\?.*$/, ""))) {
    return `Organization "${context.organization}" was not found at ${where}, or the token may not read it (404 on ${request(error)}). ${NOTHING_WRITTEN}`;
  }
  if (error instanceof RateLimitedError) {
    return `${where} kept rate limiting the reads (429 on ${request(error)}) past the client's retry budget: run adopt again later, with a lower --concurrency, or raise WSBRIDGE_MAX_RATE_LIMIT_RETRIES. ${NOTHING_WRITTEN}`;
  }
  if (error instanceof ServerError) {
    return `${where} failed to answer ${request(error)} (${error.status ?? "no status"}${error.title === undefined ? "" : ` ${error.title}`}) after ${error.attempts === 1 ? "1 attempt" : `${error.attempts} attempts`}: run adopt again later. ${NOTHING_WRITTEN}`;
  }
  if (error instanceof TransportError) {
    return `Could not reach ${where} (${error.message}). Check --address and the network. ${NOTHING_WRITTEN}`;
  }
  if (error instanceof ApiError) return `${error.message}. ${NOTHING_WRITTEN}`;
  return `${error instanceof Error ? error.message : String(error)} ${NOTHING_WRITTEN}`;
}
