// The parts of Pulumi's package schema (pkg/codegen/schema/schema.go, PackageSpec and friends) that
// this package uses, as plain JSON types.

export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  $ref?: string;
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
}

export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
}

export interface ObjectTypeSpec {
  type?: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export interface ResourceSpec {
  description?: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
  properties: Record<string, PropertySpec>;
  required?: string[];
  /** Other type tokens the resource had: the engine moves a state of that type to this one. */
  aliases?: { type: string }[];
}

export interface FunctionSpec {
  description?: string;
  inputs: ObjectTypeSpec;
  outputs: ObjectTypeSpec;
}

export interface NodejsLanguageSpec {
  packageName: string;
  packageDescription: string;
  dependencies: Record<string, string>;
  respectSchemaVersion: boolean;
}

export interface GoLanguageSpec {
  importBasePath: string;
  respectSchemaVersion: boolean;
}

export interface PythonLanguageSpec {
  packageName: string;
  requires: Record<string, string>;
  pyproject: { enabled: boolean };
  respectSchemaVersion: boolean;
}

export interface JavaLanguageSpec {
  dependencies: Record<string, string>;
}

export interface CSharpLanguageSpec {
  rootNamespace: string;
  packageReferences: Record<string, string>;
  respectSchemaVersion: boolean;
}

export interface PackageSpec {
  name: string;
  displayName: string;
  publisher: string;
  version: string;
  description: string;
  license: string;
  homepage: string;
  repository: string;
  logoUrl: string;
  pluginDownloadURL: string;
  keywords: string[];
  meta: { moduleFormat: string; supportPack: boolean };
  language: { nodejs: NodejsLanguageSpec; go: GoLanguageSpec; python: PythonLanguageSpec; java: JavaLanguageSpec; csharp: CSharpLanguageSpec };
  config: { variables: Record<string, PropertySpec> };
  provider: ResourceSpec;
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  types: Record<string, ObjectTypeSpec>;
}
