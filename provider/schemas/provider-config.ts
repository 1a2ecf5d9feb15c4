// The one source of the provider's settings as the Pulumi package declares them: the package schema's
// `config.variables` and the provider resource's inputs (schema/schema.json, written by
// scripts/generate-package-schema.js). provider/runtime/config.ts reads exactly these keys: a
// compile-time check there fails when the two lists differ. The generator adds to each limit's
// description its environment variable, range and default from config.ts (LIMITS, DEFAULT_LIMITS),
// and to `address` its default, so those facts stay in one place.

/**
 * The settings of the wsbridge provider: the stack config `wsbridge:<setting>` for the default
 * provider, or the inputs of an explicit provider resource. Each falls back to the environment as
 * described; none is required to preview.
 */
export interface ProviderConfig {
  /**
   * The API's address, an absolute http(s) URL. Falls back to `WSBRIDGE_ADDRESS`, then `TFE_ADDRESS`,
   * then `https://` + `TFE_HOSTNAME`.
   */
  address?: string;
  /**
   * The API token. Falls back to `WSBRIDGE_TOKEN`, then `TFE_TOKEN`, then Terraform CLI's
   * `TF_TOKEN_<host>`, then the token for the address's host in the Terraform CLI credentials file
   * (`~/.terraform.d/credentials.tfrc.json`). Never logged; a token set in plaintext stack config is warned about.
   * @secret
   */
  token?: string;
  /**
   * The organization of resources and lookups that name none. Falls back to `WSBRIDGE_ORGANIZATION`,
   * then `TFE_ORGANIZATION`.
   */
  organization?: string;
  /**
   * The API's edition. Falls back to `WSBRIDGE_EDITION`; without either, it is detected once per
   * process from the API's ping headers.
   */
  edition?: "hosted" | "self-managed";
  /**
   * Milliseconds allowed per attempt for the response headers, and again for the body.
   * @TJS-type integer
   */
  requestTimeoutMs?: number;
  /**
   * Retries of a 5xx answer or a lost connection, for requests that are safe to repeat.
   * @TJS-type integer
   */
  maxRetries?: number;
  /**
   * Wall-clock budget of one call in milliseconds, all attempts and waits included.
   * @TJS-type integer
   */
  retryBudgetMs?: number;
  /**
   * How many 429 answers one call may wait out.
   * @TJS-type integer
   */
  maxRateLimitRetries?: number;
  /**
   * The longest wait in milliseconds a 429 may ask for; a longer one fails at once.
   * @TJS-type integer
   */
  rateLimitMaxWaitMs?: number;
  /**
   * How long, in milliseconds, unlock's "not finalized yet" 503 is retried.
   * @TJS-type integer
   */
  unlockRetryPeriodMs?: number;
}
