/*
 * Peak resident memory of a provider plugin while one CLI operation runs, read from /proc (Linux only):
 * by default the dynamic-provider plugin (the `node …/cmd/dynamic-provider` process that
 * `pulumi-resource-pulumi-nodejs` starts); `new PluginRssSampler("wsbridge")` samples the package's
 * provider plugin instead (the `node …/pulumi-resource-wsbridge.js` process its launcher execs).
 *
 * The kernel keeps each process's high-water mark (`VmHWM` in /proc/<pid>/status), so sampling it now
 * and then is enough: the peak is exact up to the last sample before the plugin exits (the sampling
 * period). Only descendants of this process count, so other people's plugins on the machine are ignored.
 */
import * as fs from "node:fs";

const SAMPLE_EVERY_MS = 200;
/** The plugin's script argument; the launcher's `node -e "require.resolve('…/cmd/dynamic-provider')"` does not match. */
const DYNAMIC_PROVIDER_SCRIPT = /[/\\]cmd[/\\]dynamic-provider([/\\]index\.js)?$/;
/** The bundle of `pulumi-resource-wsbridge` (the launcher `exec`s node on it, so no other process matches). */
const WSBRIDGE_PLUGIN_SCRIPT = /[/\\]pulumi-resource-wsbridge\.js$/;

/** Which plugin to sample: the dynamic-provider host, or the package's provider plugin. */
export type SampledPlugin = "dynamic" | "wsbridge";
const PLUGIN_SCRIPTS: Record<SampledPlugin, RegExp> = { dynamic: DYNAMIC_PROVIDER_SCRIPT, wsbridge: WSBRIDGE_PLUGIN_SCRIPT };

/** Parent pid of every process, from /proc/<pid>/stat (field 4, after the parenthesized command name). */
function parentsOfAllProcesses(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const afterName = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(afterName[1]));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return parents;
}

function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, parent] of parentsOfAllProcesses()) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function isPlugin(pid: number, script: RegExp): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").some((arg) => script.test(arg));
  } catch {
    return false;
  }
}

/** The process's peak resident set so far, in KiB; undefined once it has ended. */
function highWaterKib(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Samples the plugin's peak RSS from start() to stop(). */
export class PluginRssSampler {
  private timer: NodeJS.Timeout | undefined;
  private readonly peakKibByPid = new Map<number, number>();
  /** Plugins still running; while one is known, a sample reads only its status, not the whole /proc. */
  private watched = new Set<number>();
  private readonly script: RegExp;

  constructor(plugin: SampledPlugin = "dynamic") {
    this.script = PLUGIN_SCRIPTS[plugin];
  }

  start(): void {
    this.peakKibByPid.clear();
    this.watched.clear();
    this.timer = setInterval(() => this.sample(), SAMPLE_EVERY_MS);
  }

  /** The largest peak of any plugin seen since start(), in MiB (0 when none was seen). */
  stop(): number {
    this.sample();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    return Math.max(0, ...this.peakKibByPid.values()) / 1024;
  }

  private sample(): void {
    if (this.watched.size === 0) {
      for (const pid of descendantsOf(process.pid)) if (isPlugin(pid, this.script)) this.watched.add(pid);
    }
    for (const pid of [...this.watched]) {
      const kib = highWaterKib(pid);
      if (kib === undefined) {
        this.watched.delete(pid);
        continue;
      }
      this.peakKibByPid.set(pid, Math.max(kib, this.peakKibByPid.get(pid) ?? 0));
    }
  }
}

/** Whether /proc can be read here (the sampler reports 0 elsewhere). */
export function canSamplePluginRss(): boolean {
  return fs.existsSync("/proc/self/status");
}
