/**
 * Private registry modules and the deprecation of their versions.
 */
import type { ModuleVersionRecord, RegistryModuleRecord } from "../store/model";
import type { Store } from "../store/store";

/**
 * Text the emulator appends to a deprecation reason: the service's reference response returns a
 * reason that differs from the submitted one, so clients must not expect an exact echo.
 */
export const DEPRECATION_REASON_SUFFIX = " (This module version is deprecated.)";

export function storedReason(submitted: string): string {
  return submitted === "" ? DEPRECATION_REASON_SUFFIX.trim() : `${submitted}${DEPRECATION_REASON_SUFFIX}`;
}

export function findModule(store: Store, org: string, name: string, provider: string): RegistryModuleRecord | undefined {
  return store.registryModules.find((m) => m.organization === org && m.name === name && m.provider === provider);
}

export function versionsOf(store: Store, moduleId: string): ModuleVersionRecord[] {
  return store.moduleVersions.filter((v) => v.moduleId === moduleId);
}

export function findVersion(store: Store, moduleId: string, version: string): ModuleVersionRecord | undefined {
  return store.moduleVersions.find((v) => v.moduleId === moduleId && v.version === version);
}
