// The value rules of every input, lookup argument and request attribute, written once: the form a value
// must have (a pattern, a length, a range) and how a check says it. Built from this table:
// - the zod schemas of each kind's inputs (provider/schemas/<kind>.ts) and of the lookups' arguments,
//   which the provider checks at preview;
// - the JSON Schemas (schema/<Kind>.json), whose rules scripts/generate-schema.js takes from those zod
//   schemas;
// - the request documents' schemas and the client's option checks (runtime/api/documents), the last
//   check before anything is sent.
// Each rule lists values it accepts and refuses; test/unit/value-rules.test.ts runs them through every
// consumer, so two consumers of one rule cannot disagree. Rules that tie two properties together live
// with their kind (`workspaceRules` in workspace.ts).
import { z } from "zod";

/** A pattern a text value must match, and what it asks for, as a check says it ("must …"). */
export interface PatternCheck {
  readonly pattern: RegExp;
  readonly message: string;
}

/** The form of a text value: checked in this order (lengths, then each pattern). */
export interface TextRule {
  readonly minLength?: number;
  /** Default: "must not be empty" (minLength 1). */
  readonly tooShort?: string;
  readonly maxLength?: number;
  /** Default: "must be at most <maxLength> characters". */
  readonly tooLong?: string;
  readonly patterns?: readonly PatternCheck[];
  /** Values the rule accepts and refuses: its documentation, and the samples the agreement test runs. */
  readonly accepts: readonly string[];
  readonly refuses: readonly string[];
}

/** A whole number in a range. */
export interface WholeNumberRule {
  readonly min: number;
  readonly max: number;
  readonly accepts: readonly number[];
  readonly refuses: readonly number[];
}

const NAME = /^[A-Za-z0-9_-]+$/;
/** Letters, digits and `_ . = + - @ :`: the characters of tag keys and of non-empty tag values. */
export const TAG_TEXT = /^[A-Za-z0-9_.=+\-@:]+$/;
/** Keys starting with these are the service's own. */
export const RESERVED_TAG_PREFIX = /^[Hh][Cc][Pp]?:/;
export const MAX_TAG_KEY_LENGTH = 128;
export const MAX_TAG_VALUE_LENGTH = 256;
/** Bound directly on a workspace; up to 10 more may come from its project. */
export const MAX_DIRECT_TAG_BINDINGS = 10;

export const RULES = {
  workspaceId: {
    patterns: [{ pattern: /^ws-[A-Za-z0-9]+$/, message: 'must be a workspace id ("ws-…")' }],
    accepts: ["ws-abc123"], refuses: ["abc123", "ws-", "ws-a/b", "ws-a b"],
  },
  workspaceName: {
    patterns: [{ pattern: NAME, message: "must contain only letters, digits, '-' and '_' (and not be empty)" }], maxLength: 260,
    accepts: ["networking-prod", "a_b", "x".repeat(260)], refuses: ["", "a b", "a/b", "x".repeat(261)],
  },
  organizationName: {
    patterns: [{ pattern: NAME, message: "must contain only letters, digits, '-' and '_' (and not be empty)" }],
    accepts: ["my-org", "org_1"], refuses: ["", "my org", "a/b"],
  },
  projectId: {
    patterns: [{ pattern: /^prj-[A-Za-z0-9]+$/, message: 'must be a project id ("prj-…")' }],
    accepts: ["prj-abc"], refuses: ["project-1", "prj-", "prj-a b"],
  },
  sshKeyId: {
    patterns: [{ pattern: /^sshkey-[A-Za-z0-9]+$/, message: 'must be an SSH key id ("sshkey-…")' }],
    accepts: ["sshkey-GxrePWre1Ezug7aM"], refuses: ["key-1", "sshkey-"],
  },
  /** An id or a version the API needs, with no other rule: only not empty. */
  nonEmpty: { minLength: 1, accepts: ["x", "~> 1.9.0"], refuses: [""] },
  autoDestroyAt: {
    patterns: [{
      pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/,
      message: "must be an ISO 8601 timestamp with a time zone, e.g. 2027-01-31T18:00:00Z",
    }],
    accepts: ["2027-01-31T18:00:00Z", "2027-01-31T18:00+01:00", "2027-01-31T18:00:00.123Z"],
    refuses: ["2027-01-31", "2027-01-31T18:00:00", "tomorrow"],
  },
  autoDestroyActivityDuration: {
    patterns: [{ pattern: /^(?!0+[dh]$)\d{1,4}[dh]$/, message: "must be 1 to 4 digits (greater than 0) followed by d or h, e.g. 14d" }],
    accepts: ["14d", "1h", "9999d", "01d"], refuses: ["0d", "00h", "10000d", "14", "14w", ""],
  },
  vcsIdentifier: {
    patterns: [{ pattern: /^[^/\s]+\/([^/\s]+\/_git\/)?[^/\s]+$/, message: 'must look like ":org/:repo" (or ":org/:project/_git/:repo")' }],
    accepts: ["acme/network", "acme/platform/_git/network"], refuses: ["network", "acme/", "a b/c", "a/b/c"],
  },
  sourceUrl: {
    patterns: [{ pattern: /^https?:\/\/[^#\s]+$/, message: "must be an http(s) URL without a #fragment" }],
    accepts: ["https://example.com/ci", "http://ci.internal:8080/job/1"], refuses: ["example.com", "https://example.com/#x", "ftp://x"],
  },
  flatTagName: {
    patterns: [{ pattern: /^[A-Za-z0-9:_-]+$/, message: "tag names may contain only letters, digits, ':', '_' and '-' (and not be empty)" }],
    accepts: ["prod", "team:platform", "a_b-c"], refuses: ["", "a b", "a,b", "a.b"],
  },
  tagKey: {
    minLength: 1, tooShort: "tag keys must not be empty",
    maxLength: MAX_TAG_KEY_LENGTH, tooLong: `tag keys must be at most ${MAX_TAG_KEY_LENGTH} characters`,
    patterns: [
      { pattern: TAG_TEXT, message: "tag keys may contain only letters, digits and _ . = + - @ :" },
      // A lookahead, not a refinement, so the JSON Schema states the rule too.
      { pattern: /^(?![Hh][Cc][Pp]?:)/, message: "tag keys must not start with the reserved prefixes hc: or hcp:" },
    ],
    accepts: ["env", "cost-center", "a.b=c+d@e:f", "x".repeat(128)], refuses: ["", "a b", "a/b", "x".repeat(129), "hc:x", "HCP:y"],
  },
  tagValue: {
    patterns: [{ pattern: /^$|^[A-Za-z0-9_.=+\-@:]+$/, message: "may contain only letters, digits and _ . = + - @ :" }], maxLength: MAX_TAG_VALUE_LENGTH,
    accepts: ["", "prod", "x".repeat(256)], refuses: ["a b", "a/b", "x".repeat(257)],
  },
  moduleName: {
    patterns: [{ pattern: NAME, message: "must be a module name: letters, digits, - and _ only" }], minLength: 1,
    accepts: ["vpc", "vpc_peering-2"], refuses: ["", "my vpc", "vpc/x"],
  },
  moduleProvider: {
    patterns: [{ pattern: /^[a-z0-9_]+$/, message: "must be a provider name: lower-case letters, digits and _ only (e.g. aws)" }], minLength: 1,
    accepts: ["aws", "google_beta"], refuses: ["", "AWS", "my-cloud"],
  },
  moduleVersion: {
    patterns: [{
      pattern: /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/,
      message: 'must be a version string MAJOR.MINOR.PATCH, optionally with -prerelease and +build (e.g. "1.2.0"; no leading "v")',
    }],
    accepts: ["1.2.0", "0.0.1-rc.1", "1.0.0+build.5"], refuses: ["v1.2.0", "1.2", "01.2.0", ""],
  },
  deprecationReason: { maxLength: 2000, accepts: ["", "opens port 22", "x".repeat(2000)], refuses: ["x".repeat(2001)] },
  deprecationLink: {
    patterns: [{ pattern: /^https?:\/\/[^\s]+$/, message: 'must be an absolute http or https URL without spaces (e.g. "https://example.com/upgrade")' }],
    maxLength: 2000,
    accepts: ["https://example.com/upgrade"], refuses: ["example.com", "https://a b", `https://e.com/${"x".repeat(2000)}`],
  },
  wildcardName: {
    patterns: [{ pattern: /^[A-Za-z0-9_*-]+$/, message: "must contain only letters, digits, '-', '_' and '*' (and not be empty)" }],
    accepts: ["net-*", "*prod*"], refuses: ["", "a b", "a/b"],
  },
  retentionDays: { min: 1, max: Number.MAX_SAFE_INTEGER, accepts: [1, 30, 3650], refuses: [0, -1, 1.5] },
} as const satisfies Record<string, TextRule | WholeNumberRule>;

export type RuleName = keyof typeof RULES;

const tooShortOf = (rule: TextRule): string =>
  rule.tooShort ?? (rule.minLength === 1 ? "must not be empty" : `must be at least ${rule.minLength} characters`);
const tooLongOf = (rule: TextRule): string => rule.tooLong ?? `must be at most ${rule.maxLength} characters`;

/**
 * A zod string with `rule`'s checks, in the rule's order. `message` words the (single) pattern for a
 * consumer that has always said it otherwise (a lookup argument); the checks stay the rule's.
 */
export function text(rule: TextRule, message?: string): z.ZodString {
  let schema = z.string({ error: "must be a string" });
  if (rule.minLength !== undefined) schema = schema.min(rule.minLength, tooShortOf(rule));
  if (rule.maxLength !== undefined) schema = schema.max(rule.maxLength, tooLongOf(rule));
  for (const check of rule.patterns ?? []) schema = schema.regex(check.pattern, message ?? check.message);
  return schema;
}

/** A zod whole number with `rule`'s range. */
export function wholeNumber(rule: WholeNumberRule, what: string): z.ZodNumber {
  return z.number({ error: `must be a number of ${what}` })
    .int(`must be a whole number of ${what}`)
    .min(rule.min, `must be at least ${rule.min} (a whole number of ${what})`)
    .max(rule.max, `must be at most ${rule.max}`);
}

/** The first of `rule`'s checks (in its order) that `value` breaks, and how the rule says it. */
export function brokenCheck(rule: TextRule, value: string): { check: "minLength" | "maxLength" | "pattern"; message: string } | undefined {
  if (rule.minLength !== undefined && value.length < rule.minLength) return { check: "minLength", message: tooShortOf(rule) };
  if (rule.maxLength !== undefined && value.length > rule.maxLength) return { check: "maxLength", message: tooLongOf(rule) };
  const pattern = rule.patterns?.find((p) => !p.pattern.test(value));
  return pattern === undefined ? undefined : { check: "pattern", message: pattern.message };
}
