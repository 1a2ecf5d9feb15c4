// An ad-hoc code signature for a 64-bit Mach-O executable, written on any OS. macOS on Apple silicon
// refuses to run an arm64 executable without a valid signature, and injecting the plugin into Node.js
// invalidates (postject drops) the one Node.js shipped with; `codesign -s -` exists only on macOS, and
// no registry reachable here serves a portable signer (rcodesign is a Rust crate; quill's Go module
// graph fails the checksum database). The signature is the one Apple's linker and Go's linker write:
// a SuperBlob holding one CodeDirectory (SHA-256 of every 4 KiB page of the file up to the signature,
// flags adhoc | linker-signed), no requirements, no certificate. test/unit/macho-sign.test.ts proves
// it byte for byte against the signature Go's linker wrote for the same executable.
import { createHash } from "node:crypto";

const MH_MAGIC_64 = 0xfeedfacf;
const MH_EXECUTE = 2;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CPU_TYPE_ARM64 = 0x0100000c;

const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CS_ADHOC = 0x2;
const CS_LINKER_SIGNED = 0x20000;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const CS_HASHTYPE_SHA256 = 2;
/** CodeDirectory version 0x20400: the one with the exec-segment fields. */
const CODEDIRECTORY_VERSION = 0x20400;
const CODEDIRECTORY_HEADER = 88;
const SUPERBLOB_HEADER = 12;
const BLOB_INDEX = 8;
const PAGE_SHIFT = 12;
const PAGE = 1 << PAGE_SHIFT;
const HASH_SIZE = 32;

export interface Segment {
  name: string;
  /** Offset of the load command in the file. */
  command: number;
  vmsize: bigint;
  fileoff: bigint;
  filesize: bigint;
}

export interface MachO {
  cputype: number;
  filetype: number;
  ncmds: number;
  sizeofcmds: number;
  /** Offset just past the last load command. */
  commandsEnd: number;
  /** The lowest file offset of any section's contents: load commands may grow up to here. */
  firstSectionOffset: number;
  segments: Segment[];
  /** The LC_CODE_SIGNATURE command, if any. */
  signature?: { command: number; dataoff: number; datasize: number };
}

/** The load commands of a thin 64-bit little-endian Mach-O file (Node.js's macOS binaries are). */
export function readMachO(file: Buffer): MachO {
  if (file.length < 32 || file.readUInt32LE(0) !== MH_MAGIC_64) throw new Error("not a thin 64-bit little-endian Mach-O file");
  const ncmds = file.readUInt32LE(16);
  const sizeofcmds = file.readUInt32LE(20);
  const segments: Segment[] = [];
  let signature: MachO["signature"];
  let firstSectionOffset = file.length;
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    const cmd = file.readUInt32LE(at);
    const cmdsize = file.readUInt32LE(at + 4);
    if (cmd === LC_SEGMENT_64) {
      segments.push({
        name: file.toString("latin1", at + 8, at + 24).replace(/\0.*$/s, ""),
        command: at,
        vmsize: file.readBigUInt64LE(at + 32),
        fileoff: file.readBigUInt64LE(at + 40),
        filesize: file.readBigUInt64LE(at + 48),
      });
      const nsects = file.readUInt32LE(at + 64);
      for (let s = 0; s < nsects; s++) {
        const section = at + 72 + s * 80;
        const offset = file.readUInt32LE(section + 48);
        if (offset > 0 && offset < firstSectionOffset) firstSectionOffset = offset;
      }
    } else if (cmd === LC_CODE_SIGNATURE) {
      signature = { command: at, dataoff: file.readUInt32LE(at + 8), datasize: file.readUInt32LE(at + 12) };
    }
    at += cmdsize;
  }
  return { cputype: file.readUInt32LE(4), filetype: file.readUInt32LE(12), ncmds, sizeofcmds, commandsEnd: at, firstSectionOffset, segments, signature };
}

const segment = (macho: MachO, name: string): Segment => {
  const found = macho.segments.find((s) => s.name === name);
  if (found === undefined) throw new Error(`the Mach-O file has no ${name} segment`);
  return found;
};

const roundUp = (value: bigint, to: bigint): bigint => ((value + to - 1n) / to) * to;

/** The signature's size for `codeLimit` bytes signed under `identifier`. */
function signatureSize(codeLimit: number, identifier: string): number {
  const slots = Math.ceil(codeLimit / PAGE);
  return SUPERBLOB_HEADER + BLOB_INDEX + CODEDIRECTORY_HEADER + Buffer.byteLength(identifier) + 1 + slots * HASH_SIZE;
}

/**
 * `file` signed ad hoc as `identifier` (macOS shows it as the signature's Identifier). A file already
 * signed is signed again in the same place; an unsigned one gets an LC_CODE_SIGNATURE and its signature
 * at the end of __LINKEDIT, which must be the end of the file.
 */
export function signAdHoc(input: Buffer, identifier: string): Buffer {
  const macho = readMachO(input);
  let commandsEnd = macho.commandsEnd;
  let dataoff: number;
  let head: Buffer;
  const linkedit = segment(macho, "__LINKEDIT");
  if (macho.signature !== undefined) {
    dataoff = macho.signature.dataoff;
    head = Buffer.from(input.subarray(0, dataoff));
  } else {
    if (linkedit.fileoff + linkedit.filesize !== BigInt(input.length)) throw new Error("__LINKEDIT does not end the file: no place for a signature");
    if (commandsEnd + 16 > macho.firstSectionOffset) throw new Error("no room after the load commands for LC_CODE_SIGNATURE");
    dataoff = Math.ceil(input.length / 16) * 16;
    head = Buffer.alloc(dataoff);
    input.copy(head);
    head.writeUInt32LE(LC_CODE_SIGNATURE, commandsEnd);
    head.writeUInt32LE(16, commandsEnd + 4);
    head.writeUInt32LE(macho.ncmds + 1, 16);
    head.writeUInt32LE(macho.sizeofcmds + 16, 20);
    commandsEnd += 16;
  }
  const command = macho.signature?.command ?? commandsEnd - 16;
  const size = signatureSize(dataoff, identifier);
  head.writeUInt32LE(dataoff, command + 8);
  head.writeUInt32LE(size, command + 12);
  // __LINKEDIT now ends where the signature does; its memory size grows only if it must.
  const filesize = BigInt(dataoff + size) - linkedit.fileoff;
  const page = macho.cputype === CPU_TYPE_ARM64 ? 0x4000n : 0x1000n;
  head.writeBigUInt64LE(filesize, linkedit.command + 48);
  if (filesize > linkedit.vmsize) head.writeBigUInt64LE(roundUp(filesize, page), linkedit.command + 32);

  const text = segment(macho, "__TEXT");
  return Buffer.concat([head, codeSignature(head, identifier, macho.filetype === MH_EXECUTE, text)]);
}

/** The SuperBlob with one CodeDirectory over every page of `code`. */
function codeSignature(code: Buffer, identifier: string, executable: boolean, text: Segment): Buffer {
  const slots = Math.ceil(code.length / PAGE);
  const ident = Buffer.from(`${identifier}\0`, "utf8");
  const hashOffset = CODEDIRECTORY_HEADER + ident.length;
  const directoryLength = hashOffset + slots * HASH_SIZE;
  const out = Buffer.alloc(SUPERBLOB_HEADER + BLOB_INDEX + directoryLength);
  // Every field of a signature is big-endian.
  out.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, 0);
  out.writeUInt32BE(out.length, 4);
  out.writeUInt32BE(1, 8);
  out.writeUInt32BE(CSSLOT_CODEDIRECTORY, 12);
  out.writeUInt32BE(SUPERBLOB_HEADER + BLOB_INDEX, 16);
  const cd = SUPERBLOB_HEADER + BLOB_INDEX;
  out.writeUInt32BE(CSMAGIC_CODEDIRECTORY, cd);
  out.writeUInt32BE(directoryLength, cd + 4);
  out.writeUInt32BE(CODEDIRECTORY_VERSION, cd + 8);
  out.writeUInt32BE(CS_ADHOC | CS_LINKER_SIGNED, cd + 12);
  out.writeUInt32BE(hashOffset, cd + 16);
  out.writeUInt32BE(CODEDIRECTORY_HEADER, cd + 20); // identOffset
  out.writeUInt32BE(0, cd + 24); // nSpecialSlots
  out.writeUInt32BE(slots, cd + 28);
  out.writeUInt32BE(code.length, cd + 32); // codeLimit
  out.writeUInt8(HASH_SIZE, cd + 36);
  out.writeUInt8(CS_HASHTYPE_SHA256, cd + 37);
  out.writeUInt8(0, cd + 38); // platform
  out.writeUInt8(PAGE_SHIFT, cd + 39);
  // spare2, scatterOffset, teamOffset, spare3 and codeLimit64 stay zero (cd + 40 … cd + 63).
  out.writeBigUInt64BE(text.fileoff, cd + 64);
  out.writeBigUInt64BE(text.filesize, cd + 72);
  out.writeBigUInt64BE(executable ? BigInt(CS_EXECSEG_MAIN_BINARY) : 0n, cd + 80);
  ident.copy(out, cd + CODEDIRECTORY_HEADER);
  for (let slot = 0; slot < slots; slot++) {
    const page = code.subarray(slot * PAGE, Math.min(code.length, (slot + 1) * PAGE));
    createHash("sha256").update(page).digest().copy(out, cd + hashOffset + slot * HASH_SIZE);
  }
  return out;
}

export interface SignatureCheck {
  identifier: string;
  flags: number;
  pages: number;
  /** Every page hash matches the file's bytes, and the signature ends the file. */
  valid: boolean;
}

/** Reads a file's embedded CodeDirectory and checks each page hash against the file's bytes. */
export function checkSignature(file: Buffer): SignatureCheck | undefined {
  const macho = readMachO(file);
  if (macho.signature === undefined) return undefined;
  const { dataoff, datasize } = macho.signature;
  const blob = file.subarray(dataoff, dataoff + datasize);
  if (blob.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) return { identifier: "", flags: 0, pages: 0, valid: false };
  const count = blob.readUInt32BE(8);
  for (let i = 0; i < count; i++) {
    if (blob.readUInt32BE(12 + i * 8) !== CSSLOT_CODEDIRECTORY) continue;
    const cd = blob.readUInt32BE(16 + i * 8);
    const hashOffset = blob.readUInt32BE(cd + 16);
    const identOffset = blob.readUInt32BE(cd + 20);
    const slots = blob.readUInt32BE(cd + 28);
    const codeLimit = blob.readUInt32BE(cd + 32);
    const pageSize = 1 << blob.readUInt8(cd + 39);
    const identifier = blob.toString("utf8", cd + identOffset, blob.indexOf(0, cd + identOffset));
    let valid = codeLimit === dataoff && dataoff + datasize === file.length && blob.readUInt8(cd + 37) === CS_HASHTYPE_SHA256;
    for (let slot = 0; valid && slot < slots; slot++) {
      const page = file.subarray(slot * pageSize, Math.min(codeLimit, (slot + 1) * pageSize));
      valid = createHash("sha256").update(page).digest().equals(blob.subarray(cd + hashOffset + slot * HASH_SIZE, cd + hashOffset + (slot + 1) * HASH_SIZE));
    }
    return { identifier, flags: blob.readUInt32BE(cd + 12), pages: slots, valid: valid && slots === Math.ceil(codeLimit / pageSize) };
  }
  return { identifier: "", flags: 0, pages: 0, valid: false };
}
