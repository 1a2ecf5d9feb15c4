// What a Terraform, OpenTofu or CDKTF configuration manages, read from its state: a raw state file
// (format version 4: a local `terraform.tfstate`, `terraform state pull`'s output, CDKTF's
// `terraform.<stack>.tfstate`) or `terraform show -json` of one. Only managed resources count: a data
// source is read by the configuration, not owned by it. Every instance keeps its address as Terraform
// prints it, its configuration address (what a `removed` block's `from` names) and the configuration
// addresses it depends on (from the state's `dependencies`), which the release needs to find what
// Terraform keeps that still refers to what moves.

/** One module call on an instance's path: `module.team["web"]` is `{ name: "team", key: "web" }`. */
export interface ModuleStep {
  readonly name: string;
  /** The `for_each` key (a string) or `count` index (a number); none for a single module call. */
  readonly key?: string | number;
}

/** One managed resource instance of the state. */
export interface TerraformInstance {
  /** Its address as Terraform prints it: `tfe_workspace.batch[0]`, `module.team["web"].tfe_workspace.ws`. */
  readonly address: string;
  /** Its resource's configuration address, without instance keys: `tfe_workspace.batch`, `module.team.tfe_workspace.ws`. */
  readonly configAddress: string;
  readonly module: readonly ModuleStep[];
  readonly type: string;
  readonly name: string;
  /** The `count` index or `for_each` key of the resource itself. */
  readonly key?: string | number;
  /** The provider's source address without the registry (`hashicorp/tfe`); Terraform's built-ins are `terraform.io/builtin/<name>`. */
  readonly provider: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** The configuration addresses this instance depends on, as the state records them. */
  readonly dependencies: readonly string[];
}

export interface TerraformState {
  /** Which input it was read from. */
  readonly form: "raw state" | "show -json";
  /** The Terraform (or OpenTofu) version that wrote it. */
  readonly terraformVersion: string;
  readonly instances: readonly TerraformInstance[];
}

/** A state that cannot be read or holds nothing to move: the sentence says which and why. */
export class TerraformStateError extends Error {
  constructor(readonly source: string, readonly reason: string) {
    super(`${source}: ${reason}`);
    this.name = "TerraformStateError";
  }
}

/** The registries a provider source address may start with: Terraform's and OpenTofu's. */
const REGISTRIES = ["registry.terraform.io/", "registry.opentofu.org/"];

/** Reads `text`, the content of `source` (a file name or a description, for the messages). */
export function readTerraformState(text: string, source: string): TerraformState {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new TerraformStateError(source, "is not JSON: give a raw state (terraform.tfstate, `terraform state pull`) or `terraform show -json` of it.");
  }
  if (!isObject(document)) throw new TerraformStateError(source, "is not a Terraform state: its JSON is not an object.");
  if ("encrypted_data" in document || "encryption_version" in document) {
    throw new TerraformStateError(source, "is an encrypted OpenTofu state: give `tofu state pull` or `tofu show -json` of it, which OpenTofu decrypts with the configuration's key.");
  }
  if ("resource_changes" in document || "planned_values" in document) {
    throw new TerraformStateError(source, "is a plan (`terraform show -json <planfile>`), not a state: give the state, or `terraform show -json` without a plan file.");
  }
  if ("values" in document || "format_version" in document) return fromShowJson(document, source);
  if ("resources" in document || "version" in document) return fromRawState(document, source);
  throw new TerraformStateError(source, "is neither a raw Terraform state (it has no `version` and `resources`) nor `terraform show -json` output (no `format_version` and `values`).");
}

function fromRawState(document: Record<string, unknown>, source: string): TerraformState {
  if (document.version !== 4) {
    throw new TerraformStateError(source, `is a state of format version ${JSON.stringify(document.version)}; format 4 (Terraform 0.12 and later, every OpenTofu) is read. Run \`terraform state pull\` with a current Terraform.`);
  }
  const instances: TerraformInstance[] = [];
  for (const resource of arrayOf(document.resources)) {
    if (!isObject(resource) || resource.mode !== "managed") continue;
    const module = typeof resource.module === "string" ? parseModulePath(resource.module, source) : [];
    const type = String(resource.type);
    const name = String(resource.name);
    for (const instance of arrayOf(resource.instances)) {
      if (!isObject(instance)) continue;
      const key = indexKey(instance.index_key);
      instances.push(made({
        module, type, name, ...(key === undefined ? {} : { key }),
        provider: providerSource(String(resource.provider ?? "")),
        attributes: isObject(instance.attributes) ? instance.attributes : {},
        dependencies: arrayOf(instance.dependencies).map(String),
      }));
    }
  }
  return { form: "raw state", terraformVersion: String(document.terraform_version ?? "unknown"), instances };
}

function fromShowJson(document: Record<string, unknown>, source: string): TerraformState {
  const values = document.values;
  if (values === undefined || values === null) {
    // `terraform show -json` of an empty state prints no `values`.
    return { form: "show -json", terraformVersion: String(document.terraform_version ?? "unknown"), instances: [] };
  }
  if (!isObject(values) || !isObject(values.root_module)) {
    throw new TerraformStateError(source, "looks like `terraform show -json` output but has no `values.root_module`: give `terraform show -json` of a state, not of a plan.");
  }
  const instances: TerraformInstance[] = [];
  const walk = (module: Record<string, unknown>): void => {
    const path = typeof module.address === "string" ? parseModulePath(module.address, source) : [];
    for (const resource of arrayOf(module.resources)) {
      if (!isObject(resource) || resource.mode !== "managed") continue;
      const key = indexKey(resource.index);
      instances.push(made({
        module: path, type: String(resource.type), name: String(resource.name), ...(key === undefined ? {} : { key }),
        provider: providerSource(String(resource.provider_name ?? "")),
        attributes: isObject(resource.values) ? resource.values : {},
        dependencies: arrayOf(resource.depends_on).map(String),
      }));
    }
    for (const child of arrayOf(module.child_modules)) if (isObject(child)) walk(child);
  };
  walk(values.root_module);
  return { form: "show -json", terraformVersion: String(document.terraform_version ?? "unknown"), instances };
}

function made(parts: Omit<TerraformInstance, "address" | "configAddress">): TerraformInstance {
  const modulePart = (withKeys: boolean): string =>
    parts.module.map((step) => `module.${step.name}${withKeys ? keySuffix(step.key) : ""}.`).join("");
  return {
    ...parts,
    address: `${modulePart(true)}${parts.type}.${parts.name}${keySuffix(parts.key)}`,
    configAddress: `${modulePart(false)}${parts.type}.${parts.name}`,
  };
}

/** `[0]` for a count index, `["web"]` for a for_each key (quoted as Terraform prints it), nothing for none. */
export function keySuffix(key: string | number | undefined): string {
  if (key === undefined) return "";
  return typeof key === "number" ? `[${key}]` : `[${JSON.stringify(key)}]`;
}

const MODULE_STEP = /^module\.([A-Za-z_][A-Za-z0-9_-]*)(?:\[(\d+|"(?:[^"\\]|\\.)*")\])?(?:\.|$)/;

/** `module.a["x"].module.b[0]` → its steps. */
export function parseModulePath(text: string, source: string): ModuleStep[] {
  const steps: ModuleStep[] = [];
  let rest = text;
  while (rest !== "") {
    const match = MODULE_STEP.exec(rest);
    if (match === null) throw new TerraformStateError(source, `has a module address Terraform does not write: ${JSON.stringify(text)}.`);
    const [whole, name = "", key] = match;
    steps.push(key === undefined ? { name } : { name, key: key.startsWith("\"") ? (JSON.parse(key) as string) : Number(key) });
    rest = rest.slice(whole.length);
  }
  return steps;
}

/** `provider["registry.terraform.io/hashicorp/tfe"]` (raw state) or `registry.terraform.io/hashicorp/tfe` (show -json) → `hashicorp/tfe`. */
function providerSource(text: string): string {
  const inner = /^provider\["([^"]+)"\]/.exec(text)?.[1] ?? text;
  const registry = REGISTRIES.find((r) => inner.startsWith(r));
  return registry === undefined ? inner : inner.slice(registry.length);
}

function indexKey(value: unknown): string | number | undefined {
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
