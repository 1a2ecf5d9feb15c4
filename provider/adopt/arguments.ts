// `wsbridge adopt`'s flags. The connection flags are the provider's settings (runtime/settings.ts),
// resolved as the provider resolves them: a flag where stack config would be, then the environment.
import { DEFAULT_ADDRESS, SETTINGS, type SettingName } from "../runtime/settings";
import { FORMS, LANGUAGES, type Form, type Language } from "./program/project";
import type { Selection } from "./selection";
import { parseSplitBy, SPLITS_USAGE, type SplitBy } from "./split";
import type { TerraformSource } from "./terraform/input";
import { parseReleaseTool, type ReleaseTool } from "./terraform/release";

/** The Terraform input: where its state is, the tool and version that will apply the release, CDKTF's stack. */
export interface TerraformArguments {
  readonly from: TerraformSource;
  readonly tool: ReleaseTool;
  readonly cdktfStack?: string;
}

export interface AdoptArguments {
  /** `wsbridge:<name>` values given as flags (address, token, organization, edition). */
  readonly settings: Partial<Record<SettingName, string>>;
  readonly selection: Selection;
  readonly modules: boolean;
  /** A selection flag (or --no-modules) was given: a later run takes it instead of the recorded one. */
  readonly selectionGiven: boolean;
  readonly out: string;
  readonly language: Language;
  readonly languageGiven: boolean;
  /** --form: how the program declares the objects (default: the folder's, else a table where the language can loop). */
  readonly form?: Form;
  readonly projectName?: string;
  /** The stack whose state says what the folder's program already holds (default: the selected one). */
  readonly stack?: string;
  /** One project (folder, stack) per group of this kind, instead of one for the whole selection. */
  readonly splitBy?: SplitBy;
  readonly concurrency: number;
  /** --from-terraform / --from-terraform-workspace: what a Terraform configuration manages moves. */
  readonly terraform?: TerraformArguments;
  readonly help: boolean;
}

export class UsageError extends Error {}

const CONNECTION: readonly SettingName[] = ["address", "token", "organization", "edition"];

function fallbacks(name: SettingName): string {
  return SETTINGS[name].environment.join(" or ");
}

export const USAGE = `Usage: wsbridge adopt [options]

Reads every workspace of an organization and what hangs off it (locks, SSH keys, remote-state
consumers, data-retention policies, tags) and the deprecated versions of its registry modules, and
writes a Pulumi program that adopts them all: \`pulumi up\` of it imports every object and changes
nothing on the server. Only reads: every request is a GET, and a read-only token is enough.

Connection (the provider's settings; a flag wins over the environment):
  --address URL            else ${fallbacks("address")}; default ${DEFAULT_ADDRESS}
  --token TOKEN            else ${fallbacks("token")}, then TF_TOKEN_<host>, then the Terraform
                           CLI credentials file. Prefer the environment: a flag shows in \`ps\`.
  --organization NAME      else ${fallbacks("organization")} (required)
  --edition hosted|self-managed   else ${fallbacks("edition")}; default: asked of the server

Selection (default: the whole organization; each flag may be given more than once):
  --project NAME|ID        workspaces of this project (any of those given)
  --workspace GLOB         workspaces whose name matches (any); * and ? are wildcards
  --tag KEY[=VALUE]        workspaces carrying this key-value tag, direct or inherited (all of those given)
  --exclude GLOB           leave out workspaces whose name matches (any)
  --no-modules             do not read the registry's modules and their deprecations

Output:
  --out DIR                the project folder (default: the current folder); a Pulumi project there
                           that adopt did not write is refused. Where adopt wrote before and the stack
                           holds what it declared, only what is new is added (a batch), and nothing
                           you wrote is changed; the stack's state says what it holds
  --stack NAME             that stack (default: the folder's selected stack), read with \`pulumi\`
  --language LANGUAGE      yaml (the default: runs with the plugin alone, and \`pulumi convert\` turns it
                           into any language), typescript, python or go; a later run keeps the folder's
  --form table|blocks      typescript, python, go: \`table\` (the default) writes one typed table of the
                           workspaces, the settings they share once and a loop; \`blocks\` one declaration
                           per object (Pulumi YAML's only form). Same names and URNs either way, so a
                           stack can switch; a later run keeps the folder's unless given
  --project-name NAME      the Pulumi project's name (default: <organization>-estate)
  --split-by project       one Pulumi project per project of the organization, each in a folder of
                           --out named after it (and one for the registry's deprecations), instead
                           of one for everything; a later run of the same folder keeps the split
  --split-by tag:KEY       the same, one per value of tag KEY (direct or inherited from the project),
                           one for the workspaces without it (no-KEY), one for the registry
  --concurrency N          reads in flight at once, 1 to 64 (default 8); the rate limit paces them
  -h, --help               this text

Leaving Terraform (docs/adopt.md, "Leaving Terraform"):
  --from-terraform FILE    take over what a Terraform, OpenTofu or CDKTF configuration manages with the
                           tfe provider: FILE is its raw state (terraform.tfstate, \`terraform state pull\`,
                           CDKTF's terraform.<stack>.tfstate) or \`terraform show -json\` of it (- : stdin).
                           Only its workspaces and the objects Terraform manages on them are adopted,
                           each named after its address; no registry modules
  --from-terraform-workspace NAME   the same, from the current state of workspace NAME of the
                           organization (read with the API: a read-only token is enough)
  --release-for TOOL@X.Y   the tool and version that will apply the release: terraform@1.9,
                           opentofu@1.10 (required with the two above). adopt writes
                           terraform-release/: removed blocks, or \`state rm\` where the version or
                           the case needs it, and the steps in order; \`wsbridge gate\` checks the plan
  --cdktf-stack NAME       the state is CDKTF's stack NAME: the release is run in cdktf.out/stacks/NAME

Selection flags given to a later run replace the ones the folder was adopted with; without them it
takes the same. It writes the program, adoption-report.md (what was adopted, what was not and why,
what the stack holds that is gone from the server or changed there) and adoption-report.json, and
prints a summary. See docs/adopt.md.`;

export function parseAdoptArguments(argv: readonly string[]): AdoptArguments {
  const settings: Partial<Record<SettingName, string>> = {};
  const projects: string[] = [];
  const workspaces: string[] = [];
  const tags: { key: string; value?: string }[] = [];
  const excludes: string[] = [];
  let modules = true;
  let out = ".";
  let language: Language = "yaml";
  let languageGiven = false;
  let form: Form | undefined;
  let selectionGiven = false;
  let projectName: string | undefined;
  let stack: string | undefined;
  let splitBy: SplitBy | undefined;
  let concurrency = 8;
  let help = false;
  let fromFile: string | undefined;
  let fromWorkspace: string | undefined;
  let releaseFor: ReleaseTool | undefined;
  let cdktfStack: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag = "", inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new UsageError(`${flag} needs a value.`);
      return v;
    };
    const setting = CONNECTION.find((name) => flag === `--${name}`);
    if (["--project", "--workspace", "--exclude", "--tag", "--no-modules"].includes(flag)) selectionGiven = true;
    if (setting !== undefined) settings[setting] = value();
    else if (flag === "--project") projects.push(value());
    else if (flag === "--workspace") workspaces.push(value());
    else if (flag === "--exclude") excludes.push(value());
    else if (flag === "--stack") stack = value();
    else if (flag === "--split-by") {
      const parsed = parseSplitBy(value());
      if (typeof parsed !== "string") throw new UsageError(parsed.refusal);
      splitBy = parsed;
    }
    else if (flag === "--tag") {
      const text = value();
      const at = text.indexOf("=");
      tags.push(at < 0 ? { key: text } : { key: text.slice(0, at), value: text.slice(at + 1) });
    } else if (flag === "--no-modules") modules = false;
    else if (flag === "--out") out = value();
    else if (flag === "--language") {
      const v = value();
      if (!(LANGUAGES as readonly string[]).includes(v)) throw new UsageError(`--language must be one of ${LANGUAGES.join(", ")}, got "${v}".`);
      language = v as Language;
      languageGiven = true;
    } else if (flag === "--form") {
      const v = value();
      if (!(FORMS as readonly string[]).includes(v)) throw new UsageError(`--form must be one of ${FORMS.join(", ")}, got "${v}".`);
      form = v as Form;
    } else if (flag === "--project-name") {
      projectName = value();
      if (!/^[A-Za-z0-9_.-]+$/.test(projectName)) throw new UsageError(`--project-name may hold letters, digits, "_", "." and "-" only, got "${projectName}".`);
    } else if (flag === "--concurrency") {
      const v = value();
      concurrency = Number(v);
      if (!/^\d+$/.test(v) || concurrency < 1 || concurrency > 64) throw new UsageError(`--concurrency must be a whole number from 1 to 64, got "${v}".`);
    } else if (flag === "--from-terraform") fromFile = value();
    else if (flag === "--from-terraform-workspace") fromWorkspace = value();
    else if (flag === "--release-for") {
      const v = value();
      releaseFor = parseReleaseTool(v.replace("@", " "));
      if (releaseFor === undefined) throw new UsageError(`--release-for must be terraform@X.Y or opentofu@X.Y (the version that will apply the release), got "${v}".`);
    } else if (flag === "--cdktf-stack") cdktfStack = value();
    else if (flag === "-h" || flag === "--help") help = true;
    else throw new UsageError(`Unknown argument "${arg}". See wsbridge adopt --help.`);
  }
  const terraform = terraformArguments(fromFile, fromWorkspace, releaseFor, cdktfStack);
  return {
    settings, selection: { projects, workspaces, tags, excludes }, modules, selectionGiven, out, language, languageGiven, concurrency, help,
    ...(terraform !== undefined && { terraform }),
    ...(form !== undefined && { form }), ...(projectName !== undefined && { projectName }), ...(stack !== undefined && { stack }), ...(splitBy !== undefined && { splitBy }),
  };
}

function terraformArguments(file: string | undefined, workspace: string | undefined, tool: ReleaseTool | undefined, cdktfStack: string | undefined): TerraformArguments | undefined {
  if (file !== undefined && workspace !== undefined) throw new UsageError("--from-terraform and --from-terraform-workspace: give one state, not two.");
  const from: TerraformSource | undefined = file !== undefined ? { file } : workspace !== undefined ? { workspace } : undefined;
  if (from === undefined) {
    if (tool !== undefined || cdktfStack !== undefined) throw new UsageError(`${tool !== undefined ? "--release-for" : "--cdktf-stack"} goes with --from-terraform or --from-terraform-workspace.`);
    return undefined;
  }
  if (tool === undefined) {
    throw new UsageError(`${file !== undefined ? "--from-terraform" : "--from-terraform-workspace"} needs --release-for terraform@X.Y or opentofu@X.Y: the release is written for the tool and version that applies it (Terraform's \`removed\` block destroys unless told not to, OpenTofu's forgets, and older versions have none).`);
  }
  return { from, tool, ...(cdktfStack !== undefined && { cdktfStack }) };
}
