// The files of the project `adopt` writes, per language: the program and what runs it.
import type { AdoptionPlan } from "../model";
import { MARKER } from "../output";
import { GO_SDK_MODULE, goProgram, type PackageSchema } from "./go";
import { typescriptProgram } from "./typescript";
import { yamlProgram } from "./yaml";

export const LANGUAGES = ["yaml", "typescript", "go"] as const;
export type Language = (typeof LANGUAGES)[number];

export interface ProjectContext {
  readonly projectName: string;
  readonly selection: string;
  /** The package's version: the SDKs the program depends on. */
  readonly version: string;
  readonly schema: PackageSchema;
}

/** The Pulumi SDK versions the generated projects depend on (those this package is built and tested with). */
const PULUMI_NODEJS = "^3.246.0";
const PULUMI_GO = "v3.246.0";

export function projectFiles(plan: AdoptionPlan, language: Language, context: ProjectContext): Map<string, string> {
  if (language === "yaml") {
    return new Map([["Pulumi.yaml", `${MARKER}\n${yamlProgram(plan, context.projectName, context.selection)}`]]);
  }
  const description = `The estate of organization ${plan.organization}, adopted`;
  if (language === "typescript") {
    return new Map([
      ["Pulumi.yaml", `${MARKER}\nname: ${context.projectName}\nruntime: nodejs\ndescription: ${JSON.stringify(description)}\n`],
      ["index.ts", typescriptProgram(plan, context.selection)],
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
  return new Map([
    ["Pulumi.yaml", `${MARKER}\nname: ${context.projectName}\nruntime: go\ndescription: ${JSON.stringify(description)}\n`],
    ["main.go", goProgram(plan, context.selection, context.schema)],
    ["go.mod", [
      `module ${context.projectName}`, "", "go 1.22", "", "require (",
      `\t${GO_SDK_MODULE} v${context.version}`, `\tgithub.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO}`, ")", "",
    ].join("\n")],
  ]);
}
