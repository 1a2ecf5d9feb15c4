// What a stack holds, read from the stack itself: `pulumi stack ls --json` to find it, then `pulumi stack
// export` (no `--show-secrets`, so no passphrase is needed: secrets stay ciphertext and adopt reads none).
// Run with the user's environment (PULUMI_BACKEND_URL, PULUMI_HOME, PULUMI_ACCESS_TOKEN, …) in the
// project folder, as the user's own `pulumi` commands run. Child processes are asynchronous: adopt
// may share its process with other work (the tests' in-process emulator).
import { execFile } from "node:child_process";

/** One resource of a stack's state, as `pulumi stack export` writes it (the fields adopt reads). */
export interface StateResource {
  readonly urn: string;
  readonly type: string;
  readonly id?: string;
  readonly delete?: boolean;
  readonly inputs?: Readonly<Record<string, unknown>>;
  readonly outputs?: Readonly<Record<string, unknown>>;
}

export interface StackState {
  /** The stack's name as `pulumi stack ls` shows it. */
  readonly name: string;
  readonly resources: readonly StateResource[];
}

/** The stack could not be read; the message names the folder, the stack and what `pulumi` said. */
export class StackUnreadableError extends Error {}

interface StackListing {
  readonly name: string;
  readonly current?: boolean;
}

/**
 * The state of the project's stack in `dir`: `stack` if given, else the selected one, else the only
 * one; undefined when the project has no stack yet. Throws StackUnreadableError otherwise.
 */
export async function readStack(dir: string, env: NodeJS.ProcessEnv, stack: string | undefined): Promise<StackState | undefined> {
  const listed = await pulumi(dir, env, ["stack", "ls", "--json"], "list the stacks of");
  let stacks: StackListing[];
  try {
    stacks = JSON.parse(listed) as StackListing[];
  } catch {
    throw new StackUnreadableError(`\`pulumi stack ls --json\` in ${dir} printed something other than JSON. Nothing was written.`);
  }
  const names = stacks.map((s) => s.name);
  let name = stack;
  if (name === undefined) {
    if (stacks.length === 0) return undefined;
    name = stacks.find((s) => s.current === true)?.name ?? (stacks.length === 1 ? stacks[0]?.name : undefined);
    if (name === undefined) {
      throw new StackUnreadableError(`The project in ${dir} has several stacks (${names.join(", ")}) and none is selected: pass --stack. Nothing was written.`);
    }
  } else if (!names.some((n) => n === name || n.split("/").pop() === name)) {
    if (stacks.length === 0) return undefined;
    throw new StackUnreadableError(`The project in ${dir} has no stack "${name}" in this backend (it has ${names.join(", ")}). Nothing was written.`);
  }
  const exported = await pulumi(dir, env, ["stack", "export", "--stack", name], `export stack "${name}" of`);
  try {
    const deployment = JSON.parse(exported) as { deployment?: { resources?: StateResource[] } };
    return { name, resources: deployment.deployment?.resources ?? [] };
  } catch {
    throw new StackUnreadableError(`\`pulumi stack export --stack ${name}\` in ${dir} printed something other than JSON. Nothing was written.`);
  }
}

/** `pulumi <args>`'s stdout; a StackUnreadableError naming the folder and what pulumi said when it fails. */
function pulumi(dir: string, env: NodeJS.ProcessEnv, args: string[], doing: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("pulumi", [...args, "--non-interactive"], { cwd: dir, env: { ...env, PULUMI_SKIP_UPDATE_CHECK: "true" }, maxBuffer: 1024 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve(stdout);
          return;
        }
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") {
          reject(new StackUnreadableError(`Could not run \`pulumi\` to ${doing} ${dir}: it is not on PATH. Adopt reads the stack to add only what it does not hold yet. Nothing was written.`));
          return;
        }
        const said = stderr.trim().split("\n").filter((line) => line.trim() !== "").slice(-3).join(" ").replace(/^error: /, "");
        const hint = /could not (load|read) (the )?current project/.test(said)
          ? "Fix the project's Pulumi.yaml"
          : "Check the backend (`pulumi login`, PULUMI_BACKEND_URL) and --stack";
        reject(new StackUnreadableError(`Could not ${doing} ${dir}: pulumi said "${said}". ${hint}. Nothing was written.`));
      });
  });
}
