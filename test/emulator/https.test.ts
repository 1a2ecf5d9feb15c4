import { spawn, type ChildProcess } from "node:child_process";
import { createPrivateKey, X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Agent, Pool, request } from "undici";
import {
  createSelfSignedCertificate,
  ensureSelfSignedCertificate,
  startEmulator,
  type RunningEmulator,
  type TlsMaterial,
} from "../../emulator";
import { parseArgs } from "../../emulator/cli";
import { buildEmulatorCli, type BuiltCli } from "../support/built-emulator-cli";
import { Client, createWorkspace, uniqueName } from "../support/emulator-http";

/** What node:crypto prints for the names every generated certificate carries. */
const DEFAULT_SANS = "DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1";

describe("the emulator started with a certificate and key", () => {
  let pair: TlsMaterial;
  let emu: RunningEmulator;
  let pool: Pool;
  let api: Client;

  beforeAll(async () => {
    pair = await createSelfSignedCertificate();
    emu = await startEmulator({ quiet: true, versionAttribute: "terraform-version", tls: pair });
    // `ca` replaces Node's bundled roots: this client trusts the emulator's certificate and nothing else.
    pool = new Pool(emu.url, { connections: 2, connect: { ca: pair.cert } });
    api = new Client(pool, emu.token);
  });
  afterAll(async () => {
    await pool.close();
    await emu.close();
  });

  it("has an https:// URL and answers ping to a client that trusts only its certificate", async () => {
    expect(emu.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ping = await api.get("/api/v2/ping", { token: null });
    expect(ping.status).toBe(204);
    expect(ping.headers["tfp-api-version"]).toBe("2.6");
  });

  it("creates and lists workspaces over HTTPS, and its pagination links are https:// URLs", async () => {
    const a = await createWorkspace(api, emu.organization, uniqueName("tls"));
    await createWorkspace(api, emu.organization, uniqueName("tls"));
    const list = await api.get(`/api/v2/organizations/${emu.organization}/workspaces?page[size]=1`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const base = `${emu.url}/api/v2/organizations/${emu.organization}/workspaces`;
    expect(list.body.links).toEqual({
      self: `${base}?page%5Bnumber%5D=1&page%5Bsize%5D=1`,
      first: `${base}?page%5Bnumber%5D=1&page%5Bsize%5D=1`,
      prev: null,
      next: `${base}?page%5Bnumber%5D=2&page%5Bsize%5D=1`,
      last: `${base}?page%5Bnumber%5D=${list.body.meta.pagination["total-pages"]}&page%5Bsize%5D=1`,
    });
    const shown = await api.get(`/api/v2/workspaces/${a.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data.attributes.name).toBe(a.attributes.name);
  });

  it("hands out an https:// state upload URL that accepts the upload", async () => {
    const ws = await createWorkspace(api, emu.organization, uniqueName("tls"));
    const sv = await api.post(`/api/v2/workspaces/${ws.id}/state-versions`, {
      data: { type: "state-versions", attributes: { serial: 1, finalized: false } },
    });
    expect(sv.status).toBe(201);
    const uploadUrl = sv.body.data.attributes["hosted-state-upload-url"];
    expect(uploadUrl).toBe(`${emu.url}/api/v2/state-versions/${sv.body.data.id}/upload`);
    const state = JSON.stringify({ version: 4, serial: 1, lineage: "lin-tls", outputs: {}, resources: [] });
    const up = await request(uploadUrl, { dispatcher: pool, method: "PUT", body: state, headers: { "content-type": "application/octet-stream" } });
    await up.body.text();
    expect(up.statusCode).toBe(200);
  });

  it("serves service discovery whose tfe.v2 entry resolves to the https:// API", async () => {
    const discovery = await api.get("/.well-known/terraform.json", { token: null });
    expect(discovery.status).toBe(200);
    expect(discovery.body["tfe.v2"]).toBe("/api/v2/");
    expect(new URL(discovery.body["tfe.v2"], `${emu.url}/.well-known/terraform.json`).href).toBe(`${emu.url}/api/v2/`);
  });

  it("answers its /_emulator controls over HTTPS with its https:// URL", async () => {
    const info = await api.get("/_emulator/info", { token: null });
    expect(info.status).toBe(200);
    expect(info.body.url).toBe(emu.url);
  });

  it("fails the TLS handshake of a client that trusts only the usual public roots, before any request arrives", async () => {
    const before = emu.requests().length;
    const agent = new Agent();
    try {
      await expect(request(`${emu.url}/api/v2/ping`, { dispatcher: agent })).rejects.toMatchObject({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    } finally {
      await agent.close();
    }
    expect(emu.requests()).toHaveLength(before);
  });

  it("fails the TLS handshake of a client that trusts another self-signed certificate", async () => {
    const other = await createSelfSignedCertificate();
    const agent = new Agent({ connect: { ca: other.cert } });
    try {
      await expect(request(`${emu.url}/api/v2/ping`, { dispatcher: agent })).rejects.toMatchObject({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    } finally {
      await agent.close();
    }
  });
});

describe("a generated self-signed certificate", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-tls-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("names localhost, 127.0.0.1 and ::1, signs itself with an RSA 2048 key for server authentication only, and is valid for a year", async () => {
    const now = new Date("2026-03-01T12:00:00Z");
    const pair = await createSelfSignedCertificate({ now });
    const cert = new X509Certificate(pair.cert);
    expect(cert.subjectAltName).toBe(DEFAULT_SANS);
    expect(cert.subject).toBe("CN=localhost\nO=wsbridge-emulator");
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1"]);
    expect(cert.ca).toBe(false);
    expect(cert.publicKey.asymmetricKeyType).toBe("rsa");
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(cert.validFrom).toBe("Mar  1 11:00:00 2026 GMT");
    expect(cert.validTo).toBe("Mar  1 12:00:00 2027 GMT");
    expect(cert.verify(cert.publicKey)).toBe(true);
  });

  it("also names a --host that is another name or address, and leaves out wildcard addresses and names it already has", async () => {
    const named = new X509Certificate((await createSelfSignedCertificate({ host: "Emulator.Test" })).cert);
    expect(named.subjectAltName).toBe("DNS:localhost, DNS:emulator.test, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1");
    const address = new X509Certificate((await createSelfSignedCertificate({ host: "192.0.2.10" })).cert);
    expect(address.subjectAltName).toBe(`${DEFAULT_SANS}, IP Address:192.0.2.10`);
    for (const host of ["0.0.0.0", "::", "localhost", "LOCALHOST", "127.0.0.1", "::1", "0:0:0:0:0:0:0:1"]) {
      expect(new X509Certificate((await createSelfSignedCertificate({ host })).cert).subjectAltName).toBe(DEFAULT_SANS);
    }
  });

  it("is written to DIR with a 0600 key and reused while it is valid for the same names", async () => {
    const first = await ensureSelfSignedCertificate(path.join(dir, "tls"));
    expect(first.reused).toBe(false);
    expect(first.certFile).toBe(path.join(dir, "tls", "cert.pem"));
    expect(first.keyFile).toBe(path.join(dir, "tls", "key.pem"));
    expect(fs.statSync(first.keyFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(first.certFile, "utf8")).toBe(first.cert);
    expect(fs.readdirSync(path.join(dir, "tls")).sort()).toEqual(["cert.pem", "key.pem"]);
    const again = await ensureSelfSignedCertificate(path.join(dir, "tls"));
    expect(again.reused).toBe(true);
    expect(again.cert).toBe(first.cert);
    expect(again.key).toBe(first.key);
  });

  it("is made anew when the host is not among its names, when it is about to expire, or when the key does not match", async () => {
    const first = await ensureSelfSignedCertificate(dir);
    const otherHost = await ensureSelfSignedCertificate(dir, { host: "emulator.test" });
    expect(otherHost.reused).toBe(false);
    expect(new X509Certificate(otherHost.cert).checkHost("emulator.test")).toBe("emulator.test");
    expect(otherHost.cert).not.toBe(first.cert);
    // localhost and the loopback addresses are always named, so the wider certificate is still good without --host.
    expect((await ensureSelfSignedCertificate(dir)).reused).toBe(true);
    fs.writeFileSync(path.join(dir, "key.pem"), (await createSelfSignedCertificate()).key);
    const mismatched = await ensureSelfSignedCertificate(dir);
    expect(mismatched.reused).toBe(false);
    expect(new X509Certificate(mismatched.cert).checkPrivateKey(createPrivateKey(mismatched.key))).toBe(true);
    // Reused while more than a week of validity is left, then made anew.
    const in357Days = new Date(Date.now() + 357 * 86_400_000);
    expect((await ensureSelfSignedCertificate(dir, { now: in357Days })).reused).toBe(true);
    const nearExpiry = await ensureSelfSignedCertificate(dir, { now: new Date(Date.now() + 359 * 86_400_000) });
    expect(nearExpiry.reused).toBe(false);
    expect(nearExpiry.cert).not.toBe(mismatched.cert);
  });
});

describe("the wsbridge-emulator command line with TLS", () => {
  it("parses the TLS flags", () => {
    expect(parseArgs(["--tls-cert", "c.pem", "--tls-key=k.pem"])).toEqual({ tlsCert: "c.pem", tlsKey: "k.pem" });
    expect(parseArgs(["--tls-self-signed", ".wsbridge/tls", "--host", "localhost"])).toEqual({ tlsSelfSigned: ".wsbridge/tls", host: "localhost" });
  });

  it("refuses one of --tls-cert and --tls-key without the other, and a self-signed pair with a given one", () => {
    expect(() => parseArgs(["--tls-cert", "c.pem"])).toThrow("--tls-cert needs --tls-key");
    expect(() => parseArgs(["--tls-key", "k.pem"])).toThrow("--tls-key needs --tls-cert");
    expect(() => parseArgs(["--tls-cert"])).toThrow("--tls-cert needs a file");
    expect(() => parseArgs(["--tls-self-signed", "d", "--tls-cert", "c.pem", "--tls-key", "k.pem"])).toThrow(
      "--tls-self-signed cannot be combined with --tls-cert and --tls-key",
    );
  });

  describe("as a process", () => {
    let built: BuiltCli;
    let work: string;
    let child: ChildProcess | undefined;
    beforeAll(() => {
      built = buildEmulatorCli();
      work = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-cli-tls-work-"));
    });
    afterAll(() => {
      if (child && child.exitCode === null) child.kill("SIGKILL");
      built.remove();
      fs.rmSync(work, { recursive: true, force: true });
    });

    function start(args: string[]): ChildProcess {
      child = spawn(process.execPath, [built.cli, ...args], {
        cwd: work,
        env: built.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      return child;
    }

    function firstLines(proc: ChildProcess, n: number): Promise<string[]> {
      return new Promise<string[]>((resolve, reject) => {
        let buf = "";
        proc.stdout?.on("data", (d: Buffer) => {
          buf += d.toString();
          const ls = buf.split("\n");
          if (ls.length > n) resolve(ls.slice(0, n));
        });
        proc.on("exit", (code) => reject(new Error(`exited early with ${code}: ${buf}`)));
      });
    }

    function stop(proc: ChildProcess): Promise<number | null> {
      return new Promise<number | null>((resolve) => {
        proc.on("exit", (c) => resolve(c));
        proc.kill("SIGTERM");
      });
    }

    it("with --tls-self-signed DIR prints the certificate to trust as a fourth line, serves HTTPS with it, and reuses it on the next start", async () => {
      const first = start(["--port", "0", "--tls-self-signed", ".wsbridge/tls"]);
      const lines = await firstLines(first, 4);
      const caFile = path.join(fs.realpathSync(work), ".wsbridge", "tls", "cert.pem");
      expect(lines[0]).toMatch(/^WSBRIDGE_EMULATOR_URL=https:\/\/127\.0\.0\.1:\d+$/);
      expect(lines[1]).toMatch(/^WSBRIDGE_EMULATOR_TOKEN=\S+$/);
      expect(lines[2]).toBe("WSBRIDGE_EMULATOR_ORGANIZATION=example-org");
      expect(lines[3]).toBe(`WSBRIDGE_EMULATOR_CA_FILE=${caFile}`);
      const pem = fs.readFileSync(caFile, "utf8");
      const cert = new X509Certificate(pem);
      expect(cert.subjectAltName).toBe(DEFAULT_SANS);
      expect(cert.checkIP("127.0.0.1")).toBe("127.0.0.1");
      expect(cert.checkHost("localhost")).toBe("localhost");
      expect(fs.statSync(path.join(path.dirname(caFile), "key.pem")).mode & 0o777).toBe(0o600);

      const url = (lines[0] ?? "").slice("WSBRIDGE_EMULATOR_URL=".length);
      const token = (lines[1] ?? "").slice("WSBRIDGE_EMULATOR_TOKEN=".length);
      const agent = new Agent({ connect: { ca: pem } });
      try {
        const ping = await request(`${url}/api/v2/ping`, { dispatcher: agent });
        await ping.body.text();
        expect(ping.statusCode).toBe(204);
        const list = await request(`${url}/api/v2/organizations/example-org/workspaces`, { dispatcher: agent, headers: { authorization: `Bearer ${token}` } });
        await list.body.text();
        expect(list.statusCode).toBe(200);
      } finally {
        await agent.close();
      }
      expect(await stop(first)).toBe(0);

      const second = start(["--port", "0", "--tls-self-signed", ".wsbridge/tls"]);
      const again = await firstLines(second, 4);
      expect(again[3]).toBe(`WSBRIDGE_EMULATOR_CA_FILE=${caFile}`);
      expect(fs.readFileSync(caFile, "utf8")).toBe(pem);
      expect(await stop(second)).toBe(0);
    });

    it("exits 0 on a SIGTERM sent as soon as its first line arrives", async () => {
      // Writes to a pipe are synchronous, so the signal can come right after the lines; bounded repeats.
      const outcomes: string[] = [];
      for (let i = 0; i < 8; i++) {
        const proc = start(["--port", "0", "--tls-self-signed", ".wsbridge/tls"]);
        outcomes.push(
          await new Promise<string>((resolve) => {
            proc.stdout?.once("data", () => proc.kill("SIGTERM"));
            proc.on("exit", (code, signal) => resolve(`${code}/${signal}`));
          }),
        );
      }
      expect(outcomes).toEqual(Array.from({ length: 8 }, () => "0/null"));
    });

    it("exits 2 with a message naming --tls-key when --tls-cert comes alone", async () => {
      const proc = start(["--tls-cert", "cert.pem"]);
      let stderr = "";
      proc.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => proc.on("exit", (c) => resolve(c)));
      expect(code).toBe(2);
      expect(stderr.split("\n")[0]).toBe("wsbridge-emulator: --tls-cert needs --tls-key (give both, or neither)");
    });

    it("exits 1 naming the file when --tls-cert does not exist", async () => {
      const proc = start(["--tls-cert", "missing.pem", "--tls-key", "missing-key.pem"]);
      let stderr = "";
      proc.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => proc.on("exit", (c) => resolve(c)));
      expect(code).toBe(1);
      expect(stderr).toContain("wsbridge-emulator: --tls-cert: cannot read missing.pem");
    });

    it("serves HTTPS with a given --tls-cert and --tls-key and prints no CA line", async () => {
      const pair = await createSelfSignedCertificate();
      fs.writeFileSync(path.join(work, "given-cert.pem"), pair.cert);
      fs.writeFileSync(path.join(work, "given-key.pem"), pair.key, { mode: 0o600 });
      const proc = start(["--port", "0", "--tls-cert", "given-cert.pem", "--tls-key", "given-key.pem"]);
      const lines = await firstLines(proc, 4);
      expect(lines[0]).toMatch(/^WSBRIDGE_EMULATOR_URL=https:\/\/127\.0\.0\.1:\d+$/);
      expect(lines[3]).toMatch(/^# hosted edition; API at https:\/\//);
      const agent = new Agent({ connect: { ca: pair.cert } });
      try {
        const ping = await request(`${(lines[0] ?? "").slice("WSBRIDGE_EMULATOR_URL=".length)}/api/v2/ping`, { dispatcher: agent });
        await ping.body.text();
        expect(ping.statusCode).toBe(204);
      } finally {
        await agent.close();
      }
      expect(await stop(proc)).toBe(0);
    });
  });
});
