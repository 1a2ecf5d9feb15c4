// The files of the project `adopt` writes, per language: the first run's program and what runs it
// (batch 0), and a later run's batch: a file of its own in TypeScript, Python and Go, listed by an
// index file adopt owns (adopted/index.ts, adopted/__init__.py, adopted.go); in Pulumi YAML, which
// reads one file, a block of entries that yaml-batch.ts inserts into Pulumi.yaml.
import type { AdoptionPlan } from "../model";
import { GO_SDK_MODULE, goBatch, goBatchIndex, goProgram, type PackageSchema } from "./go";
import { MARKER, READ_ONLY_CONFIG } from "./header";
import { pythonBatch, pythonBatchIndex, pythonBatchModule, pythonProgram } from "./python";
import { goTableBatch, goTableProgram } from "./go-table";
import { pythonTableBatch, pythonTableProgram } from "./python-table";
import { typescriptBatch, typescriptBatchIndex, typescriptProgram } from "./typescript";
import { typescriptTableBatch, typescriptTableProgram } from "./typescript-table";
import { yamlEntryLines, yamlProgram } from "./yaml";
import type { YamlBatch } from "./yaml-batch";

export const LANGUAGES = ["yaml", "typescript", "python", "go"] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * How a program declares the objects: `table` (a typed table of the workspaces, the settings they share
 * written once, and a loop; table.ts) or `blocks` (one declaration per object). Pulumi YAML cannot loop
 * (pulumi/pulumi-yaml#191): blocks only. Names, URNs and inputs are the same in both.
 */
export const FORMS = ["table", "blocks"] as const;
export type Form = (typeof FORMS)[number];

/** The form a program takes where no flag and no record says: a table wherever the language can loop. */
export function defaultForm(language: Language): Form {
  return language === "yaml" ? "blocks" : "table";
}

export interface ProjectContext {
  readonly projectName: string;
  readonly selection: string;
  /** The package's version: the SDKs the program depends on. */
  readonly version: string;
  readonly schema: PackageSchema;
  /** Blocks in Pulumi YAML, always. */
  readonly form: Form;
}

/** The Pulumi SDK versions the generated projects depend on (those this package is built and tested with). */
const PULUMI_NODEJS = "^3.246.0";
const PULUMI_GO = "v3.246.0";
const PULUMI_PYTHON = ">=3.246.0,<4.0.0";

export function projectFiles(plan: AdoptionPlan, language: Language, context: ProjectContext): Map<string, string> {
  if (language === "yaml") {
    return new Map([["Pulumi.yaml", `${MARKER}\n${yamlProgram(plan, context.projectName, context.selection)}`]]);
  }
  const description = `The estate of organization ${plan.organization}, adopted`;
  const table = context.form === "table";
  const project = (runtime: string): string =>
    [MARKER, `name: ${context.projectName}`, `runtime: ${runtime}`, `description: ${JSON.stringify(description)}`, ...READ_ONLY_CONFIG, ""].join("\n");
  if (language === "typescript") {
    return new Map([
      ["Pulumi.yaml", project("nodejs")],
      ["index.ts", table ? typescriptTableProgram(plan, context.selection) : typescriptProgram(plan, context.selection)],
      ["adopted/index.ts", typescriptBatchIndex([])],
      ["package.json", `${JSON.stringify({
        name: context.projectName, private: true, main: "index.ts",
        dependencies: { "@pulumi/pulumi": PULUMI_NODEJS, "@pulumi-wsbridge/wsbridge": context.version },
        devDependencies: { "@types/node": "^20.0.0", typescript: "^5.0.0" },
      }, null, 2)}\n`],
      ["tsconfig.json", `${JSON.stringify({
        compilerOptions: { strict: true, outDir: "bin", target: "es2020", module: "commonjs", moduleResolution: "node", sourceMap: true, skipLibCheck: true },
        files: ["index.ts"],
      }, null, 2)}\n`],
    ]);
  }
  if (language === "python") {
    return new Map([
      ["Pulumi.yaml", project("python")],
      ["__main__.py", table ? pythonTableProgram(plan, context.selection, context.schema) : pythonProgram(plan, context.selection, context.schema)],
      ["adopted/__init__.py", pythonBatchIndex([])],
      ["requirements.txt", [`pulumi${PULUMI_PYTHON}`, `pulumi_wsbridge==${context.version}`, ""].join("\n")],
    ]);
  }
  return new Map([
    ["Pulumi.yaml", project("go")],
    ["main.go", table ? goTableProgram(plan, context.selection, context.schema) : goProgram(plan, context.selection, context.schema)],
    ["adopted.go", goBatchIndex([])],
    ["go.mod", [
      `module ${context.projectName}`, "", "go 1.22", "", "require (",
      `\t${GO_SDK_MODULE} v${context.version}`, `\tgithub.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO}`, ")", "",
    ].join("\n")],
  ]);
}

/** The file that holds a batch: the first run's program, or a later run's file (Pulumi.yaml in YAML). */
export function batchFile(language: Language, batch: number): string {
  if (language === "yaml") return "Pulumi.yaml";
  if (language === "typescript") return batch === 0 ? "index.ts" : `adopted/${batch}.ts`;
  if (language === "python") return batch === 0 ? "__main__.py" : `adopted/${pythonBatchModule(batch)}.py`;
  return batch === 0 ? "main.go" : `adopted_${batch}.go`;
}

/** The index of the batches, which adopt owns (none in YAML). */
export function batchIndexFile(language: Language): string | undefined {
  return language === "typescript" ? "adopted/index.ts" : language === "python" ? "adopted/__init__.py" : language === "go" ? "adopted.go" : undefined;
}

export function batchIndex(language: Language, batches: readonly number[]): string | undefined {
  if (language === "typescript") return typescriptBatchIndex(batches);
  if (language === "python") return pythonBatchIndex(batches);
  return language === "go" ? goBatchIndex(batches) : undefined;
}

/** A later run's batch: the whole file in TypeScript and Go; in YAML the entries yaml-batch.ts inserts. */
export function batchContent(plan: AdoptionPlan, language: Language, context: ProjectContext, batch: number): string | YamlBatch {
  if (language === "yaml") return { batch, entryLines: yamlEntryLines(plan.resources), objects: plan.resources.length };
  const table = context.form === "table";
  if (language === "typescript") return table ? typescriptTableBatch(plan, context.selection, batch) : typescriptBatch(plan, context.selection, batch);
  if (language === "python") {
    return table ? pythonTableBatch(plan, context.selection, context.schema, batch) : pythonBatch(plan, context.selection, context.schema, batch);
  }
  return table ? goTableBatch(plan, context.selection, context.schema, batch) : goBatch(plan, context.selection, context.schema, batch);
}
