/**
 * A self-signed certificate for serving the emulator over HTTPS on a developer's machine, made once
 * and reused while it is still good, so a client that trusts it keeps working across restarts.
 *
 * Node's standard library makes keys and parses certificates but cannot issue one, so the certificate
 * is encoded and signed with node-forge (1.4, BSD-3-Clause): one package with no dependencies,
 * CommonJS, maintained (security releases through 2026), typed by @types/node-forge. Passed over:
 * - @peculiar/x509 2.2 (typed, signs through WebCrypto): brings 20 packages (about 4 MB) and throws
 *   at import unless a global Reflect polyfill is loaded first, a side effect a library must not
 *   impose on the process of whoever imports the emulator;
 * - selfsigned 5.5: a wrapper over @peculiar/x509 1.x plus pkijs, so all of the above and more;
 * - shelling out to openssl: not installed everywhere.
 * node-forge's crypto is plain JavaScript, so the key pair comes from node:crypto (native, fast) and
 * forge only builds and signs the certificate; what is read back from disk is checked with
 * node:crypto's X509Certificate. RSA 2048 with SHA-256, because forge issues RSA certificates only,
 * and Go's TLS stack, Node's and macOS's all accept it.
 */
import { createPrivateKey, generateKeyPair, randomBytes, X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import { isIP } from "node:net";
import * as path from "node:path";
import { promisify } from "node:util";
import forge from "node-forge";

/** A certificate and its key as PEM text. */
export interface TlsMaterial {
  cert: string;
  key: string;
}

/** A certificate and key kept in a directory by {@link ensureSelfSignedCertificate}. */
export interface SelfSignedFiles extends TlsMaterial {
  /** Absolute path of the certificate: what a client must trust. */
  certFile: string;
  /** Absolute path of the private key (mode 0600). */
  keyFile: string;
  /** Whether the pair already in the directory was kept. */
  reused: boolean;
}

export interface SelfSignedOptions {
  /** The interface the emulator binds (`--host`): named in the certificate too unless it is a wildcard address. */
  host?: string;
  /** The current time; for tests. */
  now?: Date;
}

const DAY_MS = 86_400_000;
/** One year: under the 398 days browsers allow and the 825 days macOS allows for a TLS server certificate. */
const VALID_DAYS = 365;
/** An existing certificate is replaced once it has less than this left, so a running emulator does not outlive it. */
const MIN_REMAINING_MS = 7 * DAY_MS;
/** Tolerates a client clock slightly behind this one. */
const BACKDATE_MS = 60 * 60 * 1000;
const CERT_FILE = "cert.pem";
const KEY_FILE = "key.pem";

interface Names {
  dns: string[];
  ips: string[];
}

/** Canonical text of an IP address ("0:0::1" → "::1"), or null for a host name. */
function canonicalIp(host: string): string | null {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const family = isIP(bare);
  if (family === 0) return null;
  const hostname = new URL(`http://${family === 6 ? `[${bare}]` : bare}/`).hostname;
  return family === 6 ? hostname.slice(1, -1) : hostname;
}

/** localhost, 127.0.0.1 and ::1 always; `host` too when it is another name or a specific address. */
export function certificateNames(host?: string): Names {
  const names: Names = { dns: ["localhost"], ips: ["127.0.0.1", "::1"] };
  if (host === undefined || host === "") return names;
  const ip = canonicalIp(host);
  if (ip === null) {
    const dns = host.toLowerCase();
    if (!names.dns.includes(dns)) names.dns.push(dns);
  } else if (ip !== "0.0.0.0" && ip !== "::" && !names.ips.includes(ip)) {
    // A wildcard address is where the server listens, never a name a client connects to.
    names.ips.push(ip);
  }
  return names;
}

/** A positive serial number of 16 random bytes whose DER encoding needs no leading zero byte. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x40;
  return bytes.toString("hex");
}

/** Makes a key pair and a self-signed certificate for {@link certificateNames}, valid for a year from `now`. */
export async function createSelfSignedCertificate(options: SelfSignedOptions = {}): Promise<TlsMaterial> {
  const now = options.now ?? new Date();
  const names = certificateNames(options.host);
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const signingKey = forge.pki.privateKeyFromPem(keyPem);

  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(signingKey.n, signingKey.e);
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(now.getTime() - BACKDATE_MS);
  cert.validity.notAfter = new Date(now.getTime() + VALID_DAYS * DAY_MS);
  const subject = [
    { name: "commonName", value: "localhost" },
    { name: "organizationName", value: "wsbridge-emulator" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  // A server certificate trusted as itself: no CA rights, server authentication only (macOS requires the
  // extended key usage), and the names in subjectAltName (Go ignores the common name).
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [...names.dns.map((value) => ({ type: 2, value })), ...names.ips.map((ip) => ({ type: 7, ip }))],
    },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(signingKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}

/** Whether a pair read from disk is a matching, self-signed pair valid for a while yet and naming every name. */
function stillGood(pair: TlsMaterial, names: Names, now: Date): boolean {
  try {
    const cert = new X509Certificate(pair.cert);
    if (!cert.checkPrivateKey(createPrivateKey(pair.key)) || !cert.verify(cert.publicKey)) return false;
    const notBefore = Date.parse(cert.validFrom);
    const notAfter = Date.parse(cert.validTo);
    if (!(notBefore <= now.getTime() && notAfter - now.getTime() >= MIN_REMAINING_MS)) return false;
    return (
      names.dns.every((n) => cert.checkHost(n, { subject: "never", wildcards: false }) !== undefined) &&
      names.ips.every((ip) => cert.checkIP(ip) !== undefined)
    );
  } catch {
    return false;
  }
}

function readIfPresent(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
function writeAtomically(file: string, text: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true }); // a leftover would keep its own mode
  fs.writeFileSync(tmp, text, { mode });
  fs.renameSync(tmp, file);
}

/**
 * Keeps `cert.pem` and `key.pem` in `dir`: reuses them while {@link stillGood}, else makes a new pair
 * and writes it (the key with mode 0600; a crash between the two renames leaves a mismatched pair,
 * which the next start replaces).
 */
export async function ensureSelfSignedCertificate(dir: string, options: SelfSignedOptions = {}): Promise<SelfSignedFiles> {
  const abs = path.resolve(dir);
  const certFile = path.join(abs, CERT_FILE);
  const keyFile = path.join(abs, KEY_FILE);
  const now = options.now ?? new Date();
  const cert = readIfPresent(certFile);
  const key = readIfPresent(keyFile);
  if (cert !== null && key !== null && stillGood({ cert, key }, certificateNames(options.host), now)) {
    return { cert, key, certFile, keyFile, reused: true };
  }
  const made = await createSelfSignedCertificate({ ...options, now });
  fs.mkdirSync(abs, { recursive: true });
  writeAtomically(keyFile, made.key, 0o600);
  writeAtomically(certFile, made.cert, 0o644);
  return { ...made, certFile, keyFile, reused: false };
}
