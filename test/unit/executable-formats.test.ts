// The format steps of the plugin executables that no machine here can run (scripts/plugin-executable):
// the macOS ad-hoc signature is byte for byte the one Go's linker writes for the same executable (Go's
// darwin/arm64 binaries run on Apple silicon with exactly that signature), both re-signed in place and
// signed from scratch; the checker refuses a file changed after signing; the Windows header checksum
// matches the one Node.js's own node.exe carries, and clearing the certificate leaves a well-formed file.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { checkSignature, readMachO, signAdHoc } from "../../scripts/plugin-executable/macho-sign";
import { nodeBinary } from "../../scripts/plugin-executable/node-runtime";
import { peChecksum, readPe, withoutCertificate } from "../../scripts/plugin-executable/pe-file";

const LONG_MS = 5 * 60_000;
let dir: string;
/** A darwin/arm64 executable as Go's linker wrote and signed it (identifier "a.out", Go's choice). */
let goSigned: Buffer;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-formats-"));
  fs.writeFileSync(path.join(dir, "go.mod"), "module example.com/signed\n\ngo 1.21\n");
  fs.writeFileSync(path.join(dir, "main.go"), "package main\n\nfunc main() { println(\"signed\") }\n");
  execFileSync("go", ["build", "-trimpath", "-o", "signed", "."], {
    cwd: dir, env: { ...process.env, GOOS: "darwin", GOARCH: "arm64", CGO_ENABLED: "0", GOFLAGS: "-mod=mod -buildvcs=false" }, stdio: ["ignore", "ignore", "pipe"],
  });
  goSigned = fs.readFileSync(path.join(dir, "signed"));
}, LONG_MS);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the macOS ad-hoc signature", () => {
  test("re-signing Go's executable in place (its signature blanked) writes Go's signature byte for byte", () => {
    const { signature } = readMachO(goSigned);
    expect(signature).toBeDefined();
    const blanked = Buffer.from(goSigned);
    blanked.fill(0, signature!.dataoff);
    expect(signAdHoc(blanked, "a.out").equals(goSigned)).toBe(true);
  });

  test("signing Go's executable with its signature removed (load command, bytes, __LINKEDIT's share) writes Go's file byte for byte", () => {
    const macho = readMachO(goSigned);
    const signature = macho.signature!;
    // Go puts LC_CODE_SIGNATURE last; removing it is cutting those 16 bytes off the commands.
    expect(signature.command + 16).toBe(macho.commandsEnd);
    const unsigned = Buffer.from(goSigned.subarray(0, signature.dataoff));
    unsigned.fill(0, signature.command, signature.command + 16);
    unsigned.writeUInt32LE(macho.ncmds - 1, 16);
    unsigned.writeUInt32LE(macho.sizeofcmds - 16, 20);
    const linkedit = macho.segments.find((s) => s.name === "__LINKEDIT")!;
    unsigned.writeBigUInt64LE(BigInt(signature.dataoff) - linkedit.fileoff, linkedit.command + 48);
    expect(checkSignature(unsigned)).toBeUndefined();
    expect(signAdHoc(unsigned, "a.out").equals(goSigned)).toBe(true);
  });

  test("the checker reads Go's signature as valid, and as invalid once one byte of the code changes", () => {
    expect(checkSignature(goSigned)).toEqual({ identifier: "a.out", flags: 0x20002, pages: Math.ceil(readMachO(goSigned).signature!.dataoff / 4096), valid: true });
    const changed = Buffer.from(goSigned);
    changed[5000] = changed[5000]! ^ 0xff;
    expect(checkSignature(changed)?.valid).toBe(false);
  });

  test("a file that is not a 64-bit Mach-O is refused with a sentence", () => {
    expect(() => signAdHoc(Buffer.from("#!/bin/sh\n"), "x")).toThrow("not a thin 64-bit little-endian Mach-O file");
  });
});

describe("the Windows executable", () => {
  let nodeExe: Buffer;
  beforeAll(() => {
    nodeExe = fs.readFileSync(nodeBinary("windows-amd64"));
  }, LONG_MS);

  test("the header checksum computed here equals the one Node.js's node.exe carries", () => {
    const pe = readPe(nodeExe);
    expect(pe.checksum).not.toBe(0);
    expect(peChecksum(nodeExe, pe.checksumAt)).toBe(pe.checksum);
  });

  test("clearing node.exe's certificate drops its bytes from the end, zeroes its entry and leaves a right checksum", () => {
    const before = readPe(nodeExe);
    expect(before.certificate.size).toBeGreaterThan(0);
    expect(before.certificate.offset + before.certificate.size).toBe(nodeExe.length);
    const cleared = withoutCertificate(nodeExe);
    const after = readPe(cleared);
    expect(after.certificate).toEqual({ offset: 0, size: 0 });
    expect(cleared.length).toBe(before.certificate.offset);
    expect(peChecksum(cleared, after.checksumAt)).toBe(after.checksum);
  });
});
