// Where each part of the package schema comes from. The shapes and their documentation are read
// from these declarations; this file only names them, and holds what is the package's own (its
// metadata and the SDK's public type names).
import { KINDS } from "../generate-schema";

/** A resource kind: its inputs interface (provider/schemas) and its dynamic class (provider/dynamic/resources). */
export interface ResourceSource {
  kind: string;
  inputs: { file: string; symbol: string };
  outputs: { file: string; symbol: string };
}

/**
 * The seven kinds, from the list that already drives schema/<Kind>.json (scripts/generate-schema.js).
 * Each kind's class lives in the file of the same name under provider/dynamic/resources/.
 */
export const RESOURCES: readonly ResourceSource[] = KINDS.map(({ kind, file, symbol }) => ({
  kind,
  inputs: { file, symbol },
  outputs: { file: file.replace(/^provider\/schemas\//, "provider/dynamic/resources/"), symbol: kind },
}));

/** A lookup: the program-facing function (its parameter is the Args interface, its promise the result type). */
export interface FunctionSource {
  name: string;
  file: string;
  /**
   * The gRPC Invoke answers with an object: a lookup that returns a list returns it under this property.
   * Required exactly when the function returns an array.
   */
  list?: { property: string; description: string };
}

export const FUNCTIONS: readonly FunctionSource[] = [
  { name: "getWorkspace", file: "provider/dynamic/functions/workspaces.ts" },
  {
    name: "listWorkspaces", file: "provider/dynamic/functions/workspaces.ts",
    list: { property: "workspaces", description: "The workspaces that match every filter given (all of them without filters)." },
  },
  { name: "getModuleVersion", file: "provider/dynamic/functions/module-versions.ts" },
  { name: "listModuleVersions", file: "provider/dynamic/functions/module-versions.ts" },
];

/** The provider's settings (stack config `wsbridge:<key>`, and the provider resource's inputs), described once. */
export const SETTINGS_TABLE = "provider/runtime/settings.ts";

/** The runtime that reads the settings: its DEFAULT_ADDRESS and DEFAULT_LIMITS are the settings' defaults. */
export const CONFIG_RUNTIME = "provider/runtime/config.ts";

/**
 * The SDK's names of object types whose TypeScript name cannot be used: it ends with a suffix the
 * generators add (see RESERVED_TYPE_NAME_SUFFIXES), or an anonymous type would be named like another
 * type of a different shape. Keyed by the TypeScript name, or "Owner.property" for an anonymous type.
 * These names are public API of every SDK: renaming one breaks users' code.
 */
export const TYPE_NAMES: Readonly<Record<string, string>> = {
  // Workspace.vcsRepo as the server reports it: the input's fields and the server's details.
  VcsRepoOutput: "WorkspaceVcsRepoDetails",
  // Workspace.settingOverwrites as the server reports it: both flags always set (the input's are optional).
  "Workspace.settingOverwrites": "WorkspaceSettingOverwritesDetails",
  EffectiveTagBindingOutput: "WorkspaceEffectiveTagBinding",
};

/** The package's own metadata (name and version come from package.json). */
export const PACKAGE = {
  name: "wsbridge",
  displayName: "wsbridge",
  /** Who publishes the SDKs: the .NET SDK's Authors and Company (the generator's default is "Pulumi Corp."). */
  publisher: "pulumi-wsbridge",
  description:
    "Workspaces, workspace locks, SSH key assignments, data retention policies, tag bindings, remote state consumers and " +
    "private registry module version deprecations of the Workspace Management and Module Deprecation API, with lookups " +
    "of workspaces and module versions.",
  keywords: ["pulumi", "wsbridge", "terraform", "workspaces", "category/infrastructure", "kind/native"],
  /** The SDK generators' rule for a token's module: `wsbridge:index:Workspace` is in module `index`. */
  moduleFormat: "(.*)",
  nodejs: {
    packageName: "@pulumi-wsbridge/wsbridge",
    packageDescription: "A Pulumi package for the Workspace Management and Module Deprecation API (the wsbridge provider plugin's SDK).",
  },
  go: {
    /**
     * The Go package's import path. Its module (one level up, `…/sdk/go`, whose go.mod the generator
     * writes) is named as Pulumi's generator names one for a package of namespace `pulumi-wsbridge`
     * (the npm scope above): github.com/<namespace>/pulumi-<name>/sdk/go. The module is not published;
     * programs `require` it and `replace` it with a local path.
     */
    importBasePath: "github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go/wsbridge",
  },
  python: {
    /** Pulumi's convention, pulumi_<name> (PyPI distribution `pulumi_wsbridge`, `import pulumi_wsbridge`). */
    packageName: "pulumi_wsbridge",
    /**
     * The Python SDK the generated code needs: the floor of Pulumi's Python generator at the pinned
     * release (its MinimumValidSDKVersion; scripts/sdkgen refuses a lower one). It is above the Node.js
     * SDK's floor (package.json peerDependencies): the Python generator's output needs a newer SDK.
     */
    pulumi: ">=3.231.0,<4.0.0",
  },
  java: {
    /**
     * The Pulumi Java SDK (Maven Central com.pulumi:pulumi): the newest Maven Central serves at or above
     * the Java generator's own release (pulumi-java v1.34.0; 1.21.0 to 1.36.0 are not served there).
     */
    pulumi: "1.36.1",
  },
  csharp: {
    /**
     * Namespace and NuGet package id `PulumiWsbridge.Wsbridge`: the npm scope's name, as third-party
     * providers use their own root namespace; `Pulumi.` is the prefix of Pulumi's own packages.
     */
    rootNamespace: "PulumiWsbridge",
    /** The Pulumi .NET SDK (versioned apart from the CLI), as Pulumi's providers reference it. */
    pulumi: "3.*",
  },
} as const;
