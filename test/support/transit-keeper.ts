// The test stacks' secrets provider: a stand-in for HashiCorp Vault's transit engine, which Pulumi's
// `hashivault://` secrets provider calls. Why not the passphrase provider users of a file backend
// have: it derives its key with 1,000,000 rounds of PBKDF2-SHA256 in every CLI command that opens a
// stack (0.2 CPU-s on these machines, in each of the suite's ~1,100 such commands); a cloud provider
// decrypts the stack's data key with one request instead (CONTRIBUTING.md, "Tests"). The stack's
// secrets are still AES-256-GCM ciphertext in its config and state, so the checks that no token is
// stored in plaintext hold as before. The files that run what users type (the examples' READMEs, the
// scheduled re-adoption workflow, older states) keep the passphrase.
//
// Vault's transit API as gocloud.dev/secrets/hashivault calls it: PUT /v1/transit/encrypt/<key> with
// {"plaintext": base64} answers {"data": {"ciphertext": "vault:v1:…"}}; PUT /v1/transit/decrypt/<key>
// with {"ciphertext": …} answers {"data": {"plaintext": base64}}.
//
// jest's global set-up starts it as a process of its own (a test that blocks its own event loop on a
// CLI command, as execFileSync does, must not block the keeper), and every worker finds it through
// KEEPER_ADDRESS. Its key is fixed, not secret: a test stack's data key is no secret either.
import { spawn, type ChildProcess } from "node:child_process";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { StackSecrets } from "../../scripts/lib/stack-harness";

/** The environment variable through which jest's workers find the keeper. */
export const KEEPER_ADDRESS = "WSBRIDGE_TEST_TRANSIT_KEEPER";

const KEY = createHash("sha256").update("pulumi-wsbridge test stacks").digest();
const PREFIX = "vault:v1:";

/** The secrets provider of a test stack: the keeper when jest started one, else the passphrase (undefined). */
export function testStackSecrets(): StackSecrets | undefined {
  const address = process.env[KEEPER_ADDRESS];
  if (address === undefined || address === "") return undefined;
  // VAULT_SERVER_* take precedence over VAULT_ADDR and VAULT_TOKEN in gocloud.dev's opener.
  return { provider: "hashivault://wsbridge-tests", env: { VAULT_SERVER_URL: address, VAULT_SERVER_TOKEN: "wsbridge-tests" } };
}

function encrypt(plaintext: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", KEY, iv);
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${Buffer.concat([iv, sealed]).toString("base64")}`;
}

function decrypt(ciphertext: string): Buffer {
  if (!ciphertext.startsWith(PREFIX)) throw new Error(`ciphertext does not start with ${PREFIX}`);
  const raw = Buffer.from(ciphertext.slice(PREFIX.length), "base64");
  const decipher = createDecipheriv("aes-256-gcm", KEY, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const operation = /^\/v1\/transit\/(encrypt|decrypt)\/[\w.-]+$/.exec(req.url ?? "")?.[1];
  if ((req.method !== "PUT" && req.method !== "POST") || operation === undefined) {
    answer(res, 404, { errors: [`no route ${req.method} ${req.url}`] });
    return;
  }
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { plaintext?: string; ciphertext?: string };
    const data = operation === "encrypt"
      ? { ciphertext: encrypt(Buffer.from(body.plaintext ?? "", "base64")) }
      : { plaintext: decrypt(body.ciphertext ?? "").toString("base64") };
    answer(res, 200, { data });
  } catch (error) {
    answer(res, 400, { errors: [(error as Error).message] });
  }
}

/** Serves on a free port of 127.0.0.1; prints its address, then runs until its standard input closes (jest ends). */
async function main(): Promise<void> {
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  process.stdin.resume();
  process.stdin.once("end", () => process.exit(0));
}

const RUNNING = Symbol.for("wsbridge.transitKeeper");

/** Starts the keeper's process and tells the workers its address (jest's global set-up). */
export async function startKeeperProcess(): Promise<void> {
  const registerTs = path.join(__dirname, "..", "..", "scripts", "lib", "register-ts.js");
  const child = spawn(process.execPath, ["-r", registerTs, __filename], { stdio: ["pipe", "pipe", "inherit"] });
  const address = await new Promise<string>((resolve, reject) => {
    let printed = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      printed += chunk.toString("utf8");
      if (printed.includes("\n")) resolve(printed.trim());
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the test stacks' transit keeper (${__filename}) exited (${code}) before it served`)));
  });
  process.env[KEEPER_ADDRESS] = address;
  (globalThis as Record<symbol, unknown>)[RUNNING] = child;
}

/** Ends the keeper's process (jest's global teardown): its standard input closes. */
export function stopKeeperProcess(): void {
  const child = (globalThis as Record<symbol, unknown>)[RUNNING] as ChildProcess | undefined;
  child?.stdin?.end();
}

if (require.main === module) void main();
