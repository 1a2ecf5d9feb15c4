// What can be known of an executable without running it: its format and architecture from its header,
// whether Node.js's single-executable fuse is flipped and a given blob is inside, the macOS signature
// checked page by page, and the Windows certificate entry. The release checks every archive with it
// (scripts/release/verify.ts), and so do the tests, for the platforms that cannot run here.
import { checkSignature, readMachO, type SignatureCheck } from "./macho-sign";
import { SEA_FUSE } from "./executable";
import type { ExecutableFormat, Platform } from "./node-runtime";
import { isAmd64, peChecksum, readPe } from "./pe-file";

export interface ExecutableFacts {
  format: ExecutableFormat;
  /** The platform the header names (format and architecture), as Pulumi names platforms. */
  platform: Platform | "other";
  /** `flipped`: Node.js reads the injected blob at start; `intact`: a plain Node.js binary. */
  fuse: "flipped" | "intact" | "absent";
  /** The given preparation blob is inside, byte for byte. */
  holdsBlob: boolean;
  /** macOS: the embedded signature, checked against the file. */
  signature?: SignatureCheck;
  /** Windows: the certificate table entry's size (0: none) and whether the header checksum is right. */
  certificateSize?: number;
  checksumValid?: boolean;
}

const ELF_MACHINES: Record<number, string> = { 0x3e: "amd64", 0xb7: "arm64" };
const MACHO_CPUS: Record<number, string> = { 0x01000007: "amd64", 0x0100000c: "arm64" };

export function inspectExecutable(file: Buffer, blob: Buffer): ExecutableFacts {
  const base = { fuse: fuseOf(file), holdsBlob: blob.length > 0 && file.indexOf(blob) >= 0 };
  if (file.readUInt32BE(0) === 0x7f454c46) {
    const arch = ELF_MACHINES[file.readUInt16LE(18)];
    return { format: "elf", platform: arch === undefined ? "other" : (`linux-${arch}` as Platform), ...base };
  }
  if (file.readUInt32LE(0) === 0xfeedfacf) {
    const arch = MACHO_CPUS[readMachO(file).cputype];
    return { format: "macho", platform: arch === undefined ? "other" : (`darwin-${arch}` as Platform), ...base, signature: checkSignature(file) };
  }
  const pe = readPe(file);
  return {
    format: "pe", platform: isAmd64(pe) ? "windows-amd64" : "other", ...base,
    certificateSize: pe.certificate.size, checksumValid: peChecksum(file, pe.checksumAt) === pe.checksum,
  };
}

function fuseOf(file: Buffer): ExecutableFacts["fuse"] {
  const at = file.indexOf(`${SEA_FUSE}:`);
  if (at < 0) return "absent";
  return file[at + SEA_FUSE.length + 1] === "1".charCodeAt(0) ? "flipped" : "intact";
}
