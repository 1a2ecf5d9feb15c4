/** This machine in Pulumi's `<os>-<arch>` names, as plugin archives are named and the engine asks for them. */
export function pulumiPlatform(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return `${os}-${arch}`;
}
