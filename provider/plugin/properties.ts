// The engine's property maps (protobuf Structs) to the plain objects the runtime's kinds take, and
// back. The plugin accepts secrets (ConfigureResponse.acceptSecrets), so a secret arrives as Pulumi's
// signature object around its value: the kinds get the value itself, and every output whose
// top-level property held a secret among the inputs goes back marked secret, so a secret input is
// never returned in plaintext. Unknown values (previews) stay Pulumi's sentinel string, which the
// kinds already understand.
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { Props } from "../runtime/lifecycle";

/** Pulumi's signature key of special values, and the signature of a secret (sdk/go/common/resource/sig). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Plain properties, and the top-level keys whose value was (or held) a secret. */
export interface Unwrapped {
  readonly props: Props;
  readonly secretKeys: ReadonlySet<string>;
}

function isSecret(value: unknown): value is { value: unknown } {
  return value !== null && typeof value === "object" && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** `value` with every secret replaced by its value; `found` is set when there was one. */
function reveal(value: unknown, found: { secret: boolean }): unknown {
  if (isSecret(value)) {
    found.secret = true;
    return reveal(value.value, found);
  }
  if (Array.isArray(value)) return value.map((v) => reveal(v, found));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v, found)]));
  }
  return value;
}

/** The plain properties of an engine Struct (absent → empty), with where its secrets were. */
export function fromStruct(struct: Struct | undefined): Unwrapped {
  const raw = (struct?.toJavaScript() ?? {}) as Props;
  const props: Props = {};
  const secretKeys = new Set<string>();
  for (const [key, value] of Object.entries(raw)) {
    const found = { secret: false };
    props[key] = reveal(value, found);
    if (found.secret) secretKeys.add(key);
  }
  return { props, secretKeys };
}

/** A value as a Struct can hold it: undefined members are left out (a Struct has no undefined). */
function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : defined(v)));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, defined(v)]));
  }
  return value;
}

/** An engine Struct of `props`, with the top-level `secretKeys` marked secret. */
export function toStruct(props: Props, secretKeys: ReadonlySet<string> = new Set()): Struct {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    const plain = defined(value);
    out[key] = secretKeys.has(key) ? { [SIG_KEY]: SECRET_SIG, value: plain } : plain;
  }
  return Struct.fromJavaScript(out as Parameters<typeof Struct.fromJavaScript>[0]);
}

/** The union of the secret keys of several property maps. */
export function secretKeysOf(...maps: Unwrapped[]): Set<string> {
  const keys = new Set<string>();
  for (const map of maps) for (const key of map.secretKeys) keys.add(key);
  return keys;
}
