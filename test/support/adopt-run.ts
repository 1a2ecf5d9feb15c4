// Runs `wsbridge adopt` in the test's own process (where the emulator serves), with only the given
// environment, and collects what it printed.
import { main } from "../../provider/adopt/cli";

export interface AdoptRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runAdopt(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<AdoptRun> {
  let stdout = "";
  let stderr = "";
  const sink = (append: (text: string) => void): NodeJS.WriteStream =>
    ({ write: (chunk: string | Uint8Array) => { append(String(chunk)); return true; }, isTTY: false }) as unknown as NodeJS.WriteStream;
  const code = await main(["adopt", ...args], {
    stdout: sink((t) => { stdout += t; }), stderr: sink((t) => { stderr += t; }), env, cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}
