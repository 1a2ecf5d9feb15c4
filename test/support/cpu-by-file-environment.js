// jest's node environment, plus: with WSBRIDGE_CPU_BY_FILE set to a file path, appends one JSON line
// per test file with the CPU seconds its worker (own), and the children it waited for (the CLI, the
// plugins, go, npm, tsc), spent from the file's set-up to its teardown, hooks included. That is what the suite's
// CPU goes to, which jest's own timings (wall time, under load) do not say. Linux only (/proc).
const fs = require("node:fs");
const { TestEnvironment } = require("jest-environment-node");

/**
 * This process's own CPU (utime + stime) and its waited-for children's (cutime + cstime), in seconds
 * (proc(5): fields 14-17, in clock ticks of 1/100 s).
 */
function cpuSeconds() {
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = (i) => Number(fields[i]) / 100;
  return { own: ticks(11) + ticks(12), children: ticks(13) + ticks(14) };
}

class CpuByFileEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.out = process.env.WSBRIDGE_CPU_BY_FILE;
    this.measure = this.out !== undefined && this.out !== "" && process.platform === "linux";
  }

  async setup() {
    if (this.measure) this.start = { ...cpuSeconds(), wall: Date.now() };
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    if (!this.measure) return;
    const now = cpuSeconds();
    const round = (seconds) => Math.round(seconds * 100) / 100;
    const own = round(now.own - this.start.own);
    const children = round(now.children - this.start.children);
    const line = { file: this.testPath, cpu: round(own + children), own, children, wall: (Date.now() - this.start.wall) / 1000 };
    fs.appendFileSync(this.out, JSON.stringify(line) + "\n");
  }
}

module.exports = CpuByFileEnvironment;
