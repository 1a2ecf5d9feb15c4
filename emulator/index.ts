/**
 * The local emulator of the Workspace Management and Module Deprecation API.
 *
 * ```ts
 * import { startEmulator } from "pulumi-wsbridge/emulator";
 * const emu = await startEmulator({ edition: "self-managed" });
 * // emu.url, emu.token, emu.organization ... then
 * await emu.close();
 * ```
 */
import { startServer } from "./server";
import type { EmulatorOptions, RunningEmulator } from "./types";

export type {
  DataRetentionFixture,
  Edition,
  EmulatorOptions,
  FaultSettings,
  Fixtures,
  OrganizationFixture,
  ProjectFixture,
  RegistryModuleFixture,
  RequestLogEntry,
  RunningEmulator,
  ScriptedFault,
  TagBindingFixture,
  TeamAccess,
  TlsOptions,
  TokenKind,
  TokenSpec,
  VersionAttribute,
  WorkspaceFixture,
} from "./types";
export { DEFAULT_ENGINE_VERSIONS } from "./engine-versions";
export { DEFAULT_ORGANIZATION } from "./fixtures";
export { DEPRECATION_REASON_SUFFIX } from "./domain/module-deprecation";
export { createSelfSignedCertificate, ensureSelfSignedCertificate } from "./tls";
export type { SelfSignedFiles, SelfSignedOptions, TlsMaterial } from "./tls";

/** Starts an emulator (on a free loopback port by default) and resolves once it listens. */
export function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startServer(options);
}
