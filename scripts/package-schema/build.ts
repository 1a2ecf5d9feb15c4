// Builds the Pulumi package schema (schema/schema.json) from the TypeScript sources named in
// sources.ts, read with the TypeScript compiler API: resources from each kind's inputs interface and
// dynamic class, functions from the lookups, config from the settings table (provider/runtime/settings.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { Docs } from "./docs";
import type { FunctionSpec, ObjectTypeSpec, PackageSpec, PropertySpec, ResourceSpec } from "./spec";
import { CONFIG_RUNTIME, FUNCTIONS, PACKAGE, RESOURCES, SETTINGS_TABLE, TYPE_NAMES, type FunctionSource, type ResourceSource } from "./sources";
import { releaseHome } from "./release-home";
import { TYPE_TOKEN_PREFIX, TypeMapper, pascal } from "./types";

export const repoRoot = path.resolve(__dirname, "..", "..");

/** The defaults config.ts exports (read at run time: the limits' defaults are the client's, computed there). */
interface ConfigRuntime {
  DEFAULT_ADDRESS: string;
  DEFAULT_LIMITS: Record<string, number>;
}

export function buildPackageSchema(): PackageSpec {
  const sources = new Sources();
  const docs = new Docs(sources.checker, linkNames(sources));
  const mapper = new TypeMapper(sources.checker, docs, TYPE_NAMES);
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    version: string; license: string; repository?: string | { url: string }; homepage?: string; peerDependencies: Record<string, string>;
  };

  const resources: Record<string, ResourceSpec> = {};
  for (const source of RESOURCES) resources[TYPE_TOKEN_PREFIX + source.kind] = resourceSpec(source, sources, docs, mapper);
  const functions: Record<string, FunctionSpec> = {};
  for (const source of FUNCTIONS) functions[TYPE_TOKEN_PREFIX + source.name] = functionSpec(source, sources, docs, mapper);
  const config = providerConfig();
  const types: Record<string, ObjectTypeSpec> = {};
  for (const [name, { spec }] of mapper.types) types[TYPE_TOKEN_PREFIX + name] = spec;
  checkTypeNames(Object.keys(types), RESOURCES.map((r) => r.kind), FUNCTIONS.map((f) => f.name));

  const home = releaseHome(pkg);
  return {
    name: PACKAGE.name,
    displayName: PACKAGE.displayName,
    publisher: PACKAGE.publisher,
    version: pkg.version,
    description: PACKAGE.description,
    license: pkg.license,
    homepage: home.homepage,
    repository: home.repository,
    logoUrl: home.logoUrl,
    // The engine fetches the plugin from the GitHub release the first time a program needs it; every
    // SDK carries this URL (pulumi-plugin.json's `server`) into each resource's registration.
    pluginDownloadURL: home.pluginDownloadURL,
    keywords: [...PACKAGE.keywords],
    // supportPack: the SDKs are built to be used from a local path, as `pulumi package add` makes them;
    // for Go that is what makes the generator write the module's go.mod.
    meta: { moduleFormat: PACKAGE.moduleFormat, supportPack: true },
    // In every language, respectSchemaVersion: the SDK's package version, and the plugin version its
    // resources and functions ask for, are the schema's.
    language: {
      nodejs: {
        packageName: PACKAGE.nodejs.packageName,
        packageDescription: PACKAGE.nodejs.packageDescription,
        // The SDK supports the @pulumi/pulumi releases the package itself does.
        dependencies: { "@pulumi/pulumi": defined(pkg.peerDependencies["@pulumi/pulumi"], "package.json peerDependencies @pulumi/pulumi") },
        respectSchemaVersion: true,
      },
      go: { importBasePath: PACKAGE.go.importBasePath, respectSchemaVersion: true },
      python: {
        packageName: PACKAGE.python.packageName,
        requires: { pulumi: PACKAGE.python.pulumi },
        // pyproject.toml rather than setup.py, as Pulumi's providers now publish.
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
      // The Java SDK's build.gradle (and scripts/sdkgen/java's pom.xml) depend on this Java SDK.
      java: { dependencies: { "com.pulumi:pulumi": PACKAGE.java.pulumi } },
      csharp: {
        rootNamespace: PACKAGE.csharp.rootNamespace,
        packageReferences: { Pulumi: PACKAGE.csharp.pulumi },
        respectSchemaVersion: true,
      },
    },
    config: { variables: config.properties },
    provider: {
      ...(config.description !== undefined && { description: config.description }),
      inputProperties: config.properties,
      // A provider resource's outputs are its string settings (what the engine reports back for it).
      properties: Object.fromEntries(Object.entries(config.properties).filter(([, p]) => p.type === "string")),
    },
    resources,
    functions,
    types,
  };
}

/** The TypeScript program over the sources, and lookups of their exports. */
class Sources {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;

  constructor() {
    const files = [
      ...RESOURCES.flatMap((r) => [r.inputs.file, r.outputs.file]), ...FUNCTIONS.map((f) => f.file),
    ].map((f) => path.join(repoRoot, f));
    const parsed = ts.getParsedCommandLineOfConfigFile(path.join(repoRoot, "tsconfig.json"), { noEmit: true }, {
      ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n")); },
    });
    if (parsed === undefined) throw new Error("cannot read tsconfig.json");
    this.program = ts.createProgram([...new Set(files)], parsed.options);
    this.checker = this.program.getTypeChecker();
  }

  /** The declaration of `symbol` exported by `file` (repo-relative). */
  exported(file: string, symbol: string): ts.Declaration {
    const sourceFile = this.program.getSourceFile(path.join(repoRoot, file));
    const module = sourceFile && this.checker.getSymbolAtLocation(sourceFile);
    if (module === undefined) throw new Error(`${file} is not part of the program`);
    let found = this.checker.getExportsOfModule(module).find((s) => s.name === symbol);
    if (found !== undefined && found.flags & ts.SymbolFlags.Alias) found = this.checker.getAliasedSymbol(found);
    const declaration = found?.declarations?.[0];
    if (declaration === undefined) throw new Error(`${file} does not export ${symbol}`);
    return declaration;
  }

  /** A lookup function's declaration, its Args parameter and its result (the promise's value). */
  lookup(source: FunctionSource): { declaration: ts.FunctionDeclaration; args: ts.Type; result: ts.Type } {
    const declaration = this.exported(source.file, source.name);
    if (!ts.isFunctionDeclaration(declaration)) throw new Error(`${source.name} in ${source.file} is not a function`);
    const signature = this.checker.getSignatureFromDeclaration(declaration);
    const [parameter] = declaration.parameters;
    if (signature === undefined || parameter === undefined || declaration.parameters.length !== 1) {
      throw new Error(`${source.name} must take exactly one argument, its Args object`);
    }
    const args = this.checker.getNonNullableType(this.checker.getTypeAtLocation(parameter));
    const result = this.checker.getAwaitedType(signature.getReturnType());
    if (result === undefined) throw new Error(`${source.name}: cannot read its result type`);
    return { declaration, args, result };
  }

  /** The type an interface or type alias declares. */
  declaredType(declaration: ts.Declaration): ts.Type {
    const symbol = this.checker.getSymbolAtLocation(ts.getNameOfDeclaration(declaration) ?? declaration);
    if (symbol === undefined) throw new Error(`no symbol for ${declaration.getText()}`);
    return this.checker.getDeclaredTypeOfSymbol(symbol);
  }
}

function resourceSpec(source: ResourceSource, sources: Sources, docs: Docs, mapper: TypeMapper): ResourceSpec {
  const inputs = mapper.objectProperties(sources.declaredType(sources.exported(source.inputs.file, source.inputs.symbol)), source.kind);
  const declaration = sources.exported(source.outputs.file, source.outputs.symbol);
  if (!ts.isClassDeclaration(declaration)) throw new Error(`${source.outputs.symbol} in ${source.outputs.file} is not a class`);
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  for (const { name, type, member } of declaredOutputs(declaration, sources.checker)) {
    const mapped = mapper.property(type, member, source.kind, name);
    properties[name] = mapped.spec;
    if (mapped.required) required.push(name);
  }
  if (Object.keys(properties).length === 0) throw new Error(`${source.kind} declares no outputs`);
  const description = docs.of(declaration);
  return {
    ...(description !== undefined && { description }),
    inputProperties: inputs.properties,
    ...(inputs.required.length > 0 && { requiredInputs: inputs.required }),
    properties,
    ...(required.length > 0 && { required: required.sort() }),
    // The same kind on the dynamic route: a stack made with it moves to the plugin with no change to
    // the program but the import, and nothing is deleted (docs/plugin.md, "Moving a stack to the plugin").
    aliases: [{ type: `${DYNAMIC_TYPE_PREFIX}${source.kind}` }],
  };
}

/** The type tokens of the dynamic route's resources (`pulumi.dynamic.Resource` with module "wsbridge"). */
const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic/wsbridge:";

/** The class's outputs: its `declare readonly name: pulumi.Output<T>` members. */
function declaredOutputs(declaration: ts.ClassDeclaration, checker: ts.TypeChecker): { name: string; type: ts.Type; member: ts.PropertyDeclaration }[] {
  const outputs = [];
  for (const member of declaration.members) {
    if (!ts.isPropertyDeclaration(member) || !member.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) continue;
    const typeNode = member.type;
    if (typeNode === undefined || !ts.isTypeReferenceNode(typeNode) || !/(^|\.)Output$/.test(typeNode.typeName.getText())) {
      throw new Error(`${declaration.name?.text}.${member.name.getText()} is declared but not a pulumi.Output<T>`);
    }
    const [argument] = typeNode.typeArguments ?? [];
    if (argument === undefined) throw new Error(`${declaration.name?.text}.${member.name.getText()}: pulumi.Output without a type`);
    outputs.push({ name: member.name.getText(), type: checker.getTypeFromTypeNode(argument), member });
  }
  return outputs;
}

function functionSpec(source: FunctionSource, sources: Sources, docs: Docs, mapper: TypeMapper): FunctionSpec {
  const { declaration, args, result } = sources.lookup(source);
  const owner = pascal(source.name);
  const inputs = mapper.objectProperties(args, owner);

  let outputs: ObjectTypeSpec;
  if (sources.checker.isArrayType(result)) {
    if (source.list === undefined) throw new Error(`${source.name} returns a list: name the property that holds it (FUNCTIONS[].list)`);
    const holder = mapper.property(result, undefined, owner, source.list.property);
    outputs = {
      type: "object",
      properties: { [source.list.property]: { ...holder.spec, description: source.list.description } },
      required: [source.list.property],
    };
  } else {
    if (source.list !== undefined) throw new Error(`${source.name} returns an object, not a list: remove FUNCTIONS[].list`);
    const { properties, required } = mapper.objectProperties(result, owner);
    const resultDoc = docs.of((result.aliasSymbol ?? result.getSymbol())?.declarations?.[0]);
    outputs = { type: "object", ...(resultDoc !== undefined && { description: resultDoc }), properties, ...(required.length > 0 && { required }) };
  }
  const description = docs.of(declaration);
  return {
    ...(description !== undefined && { description }),
    inputs: { type: "object", properties: inputs.properties, ...(inputs.required.length > 0 && { required: inputs.required }) },
    outputs,
  };
}

/** The provider's settings, with the facts config.ts holds added to their descriptions. */
function providerConfig(): { description: string; properties: Record<string, PropertySpec> } {
  const table = require(path.join(repoRoot, SETTINGS_TABLE)) as typeof import("../../provider/runtime/settings");
  const runtime = require(path.join(repoRoot, CONFIG_RUNTIME)) as ConfigRuntime;
  const properties: Record<string, PropertySpec> = {};
  for (const name of [...table.SETTING_NAMES].sort()) {
    const setting = table.SETTINGS[name];
    const fallback = name === "address" ? runtime.DEFAULT_ADDRESS : setting.type === "boolean" ? false : runtime.DEFAULT_LIMITS[name];
    properties[name] = {
      description: table.describeSetting(name, fallback),
      ...("secret" in setting && setting.secret && { secret: true }),
      type: setting.type,
    };
  }
  return { description: table.SETTINGS_DESCRIPTION, properties };
}

/**
 * Each `{@link X}` reads as the name the SDK user sees: an inputs interface is its kind; a lookup's
 * Args interface, and the result type it returns as its outputs, are the function.
 */
function linkNames(sources: Sources): (sourceName: string) => string | undefined {
  const names = new Map<string, string>();
  for (const r of RESOURCES) names.set(r.inputs.symbol, r.kind);
  for (const f of FUNCTIONS) {
    const { args, result } = sources.lookup(f);
    for (const type of f.list === undefined ? [args, result] : [args]) {
      const symbol = type.aliasSymbol ?? type.getSymbol();
      if (symbol !== undefined) names.set(symbol.name, f.name);
    }
  }
  return (sourceName) => names.get(sourceName);
}

/**
 * Names the generators derive from resources and functions (`WorkspaceArgs`, `GetWorkspaceResult`, …)
 * must not be taken by a type, and a type must not share a resource's name. A function's names in
 * every language: Go names `getX` `LookupX` where a resource X has `GetX`; Python adds `AwaitableGetXResult`.
 */
function checkTypeNames(tokens: string[], kinds: string[], functionNames: string[]): void {
  const functionForms = (f: string): string[] => [f, f.replace(/^Get/, "Lookup"), `Awaitable${f}`];
  const taken = new Set([
    ...kinds.flatMap((k) => [k, `${k}Args`, `${k}State`]),
    ...functionNames.map(pascal).flatMap(functionForms).flatMap((f) => [`${f}Args`, `${f}Result`, `${f}OutputArgs`]),
    "Provider", "ProviderArgs",
  ]);
  for (const token of tokens) {
    const name = token.slice(TYPE_TOKEN_PREFIX.length);
    if (taken.has(name)) throw new Error(`the type ${name} would collide with a name the SDK generators derive from a resource or function`);
  }
}

function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}
