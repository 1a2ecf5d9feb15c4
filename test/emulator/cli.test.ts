import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import { request } from "undici";
import { parseArgs } from "../../emulator/cli";
import { buildEmulatorCli, type BuiltCli } from "../support/built-emulator-cli";


describe("the wsbridge-emulator command line", () => {
  it("parses every flag into emulator options", () => {
    expect(
      parseArgs([
        "--port", "4010", "--host", "0.0.0.0", "--edition", "self-managed", "--fixtures", "f.json", "--state-file=s.json",
        "--version-attribute", "terraform-version", "--latency-ms", "5", "--rate-limit", "10", "--error-rate", "0.1", "--drop-rate", "0.2", "--seed", "7",
      ]),
    ).toEqual({
      port: 4010,
      host: "0.0.0.0",
      edition: "self-managed",
      fixtures: "f.json",
      stateFile: "s.json",
      versionAttribute: "terraform-version",
      faults: { latencyMs: 5, rateLimit: { limit: 10 }, serverErrorRate: 0.1, dropRate: 0.2, seed: 7 },
    });
  });

  it("refuses unknown flags and bad values", () => {
    expect(() => parseArgs(["--nope"])).toThrow("unknown option --nope");
    expect(() => parseArgs(["--edition", "cloud"])).toThrow("--edition must be hosted or self-managed");
    expect(() => parseArgs(["--port"])).toThrow("--port needs a number");
  });

  describe("as a process", () => {
    let built: BuiltCli;
    let child: ChildProcess | undefined;
    beforeAll(() => {
      built = buildEmulatorCli();
    });
    afterAll(() => {
      if (child && child.exitCode === null) child.kill("SIGKILL");
      built.remove();
    });

    it("prints the three variables first, serves the API, and exits 0 on SIGTERM", async () => {
      const cli = built.cli;
      expect(fs.readFileSync(cli, "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
      child = spawn(process.execPath, [cli, "--port", "0", "--edition", "self-managed"], {
        env: built.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const proc = child;
      const lines = await new Promise<string[]>((resolve, reject) => {
        let buf = "";
        proc.stdout?.on("data", (d: Buffer) => {
          buf += d.toString();
          const ls = buf.split("\n");
          if (ls.length > 3) resolve(ls.slice(0, 3));
        });
        proc.on("exit", (code) => reject(new Error(`exited early with ${code}`)));
      });
      expect(lines[0]).toMatch(/^WSBRIDGE_EMULATOR_URL=http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines[1]).toMatch(/^WSBRIDGE_EMULATOR_TOKEN=\S+$/);
      expect(lines[2]).toBe("WSBRIDGE_EMULATOR_ORGANIZATION=example-org");
      const url = (lines[0] ?? "").split("=")[1];
      const token = (lines[1] ?? "").slice("WSBRIDGE_EMULATOR_TOKEN=".length);
      const ping = await request(`${url}/api/v2/ping`);
      await ping.body.text();
      expect(ping.statusCode).toBe(204);
      expect(ping.headers["x-tfe-version"]).toBe("v202510-1");
      const list = await request(`${url}/api/v2/organizations/example-org/workspaces`, { headers: { authorization: `Bearer ${token}` } });
      await list.body.text();
      expect(list.statusCode).toBe(200);
      const code = await new Promise<number | null>((resolve) => {
        proc.on("exit", (c) => resolve(c));
        proc.kill("SIGTERM");
      });
      expect(code).toBe(0);
    });

    it("keeps serving when whoever reads its stdout goes away", async () => {
      const port = await freePort();
      const proc = spawn(process.execPath, [built.cli, "--port", String(port)], {
        env: built.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = proc;
      proc.stdout?.destroy(); // like `wsbridge-emulator | head -3` after head has exited
      let exitCode: number | null = null;
      proc.on("exit", (c) => (exitCode = c));
      let status: number | undefined;
      // Wait for the server to listen: bounded attempts, no timing assertion.
      for (let attempt = 0; attempt < 200 && status === undefined && exitCode === null; attempt++) {
        try {
          const ping = await request(`http://127.0.0.1:${port}/api/v2/ping`);
          await ping.body.text();
          status = ping.statusCode;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect(exitCode).toBeNull();
      expect(status).toBe(204);
      const code = await new Promise<number | null>((resolve) => {
        proc.on("exit", (c) => resolve(c));
        proc.kill("SIGTERM");
      });
      expect(code).toBe(0);
    });
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
