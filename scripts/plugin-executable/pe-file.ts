// What the Windows executable needs after injection: Node.js's node.exe carries an Authenticode
// certificate, which injecting the plugin invalidates and whose table entry postject leaves pointing
// into the moved sections. The entry is cleared (and the certificate's bytes dropped if they still end
// the file), so the executable is plainly unsigned rather than signed wrongly, and the header checksum
// is recomputed so tools that check it (osslsigncode, signtool) read the file as well formed.

const IMAGE_FILE_MACHINE_AMD64 = 0x8664;
const PE32_PLUS = 0x20b;
const SECURITY_DIRECTORY = 4;

export interface PeFile {
  machine: number;
  /** Offset of the optional header's CheckSum field. */
  checksumAt: number;
  checksum: number;
  /** Offset of the certificate table's data-directory entry; its file offset and size. */
  certificateEntryAt: number;
  certificate: { offset: number; size: number };
}

export function readPe(file: Buffer): PeFile {
  if (file.length < 0x40 || file.toString("latin1", 0, 2) !== "MZ") throw new Error("not a PE file (no MZ header)");
  const pe = file.readUInt32LE(0x3c);
  if (file.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new Error("not a PE file (no PE signature)");
  const optional = pe + 24;
  if (file.readUInt16LE(optional) !== PE32_PLUS) throw new Error("not a PE32+ (64-bit) file");
  const directories = optional + 112;
  const certificateEntryAt = directories + SECURITY_DIRECTORY * 8;
  return {
    machine: file.readUInt16LE(pe + 4),
    checksumAt: optional + 64,
    checksum: file.readUInt32LE(optional + 64),
    certificateEntryAt,
    certificate: { offset: file.readUInt32LE(certificateEntryAt), size: file.readUInt32LE(certificateEntryAt + 4) },
  };
}

export const isAmd64 = (pe: PeFile): boolean => pe.machine === IMAGE_FILE_MACHINE_AMD64;

/** The PE header checksum (the ImageHlp algorithm: 16-bit one's-complement sum, then the length). */
export function peChecksum(file: Buffer, checksumAt: number): number {
  let sum = 0;
  for (let at = 0; at < file.length; at += 2) {
    if (at === checksumAt || at === checksumAt + 2) continue;
    sum += at + 1 < file.length ? file.readUInt16LE(at) : file[at]!;
    sum = (sum & 0xffff) + (sum >>> 16);
  }
  sum = (sum & 0xffff) + (sum >>> 16);
  return (sum + file.length) >>> 0;
}

/** `file` without its certificate table entry (and bytes, when they end the file), checksum updated. */
export function withoutCertificate(input: Buffer): Buffer {
  const pe = readPe(input);
  const { offset, size } = pe.certificate;
  const end = offset > 0 && offset + size === input.length ? offset : input.length;
  const file = Buffer.from(input.subarray(0, end));
  file.writeUInt32LE(0, pe.certificateEntryAt);
  file.writeUInt32LE(0, pe.certificateEntryAt + 4);
  file.writeUInt32LE(peChecksum(file, pe.checksumAt), pe.checksumAt);
  return file;
}
