// jest's node environment, plus: with WSBRIDGE_CPU_BY_FILE set to a file path, appends one JSON line
// per test file with the CPU seconds its worker, and the children it waited for (the CLI, the plugins,
// go, npm, tsc), spent from the file's set-up to its teardown, hooks included. That is what the suite's
// CPU goes to, which jest's own timings (wall time, under load) do not say. Linux only (/proc).
const fs = require("node:fs");
const { TestEnvironment } = require("jest-environment-node");

/** utime + stime + cutime + cstime of this process, in seconds (proc(5): fields 14-17, in clock ticks of 1/100 s). */
function cpuSeconds() {
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
}

class CpuByFileEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.out = process.env.WSBRIDGE_CPU_BY_FILE;
    this.measure = this.out !== undefined && this.out !== "" && process.platform === "linux";
  }

  async setup() {
    if (this.measure) this.start = { cpu: cpuSeconds(), wall: Date.now() };
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    if (!this.measure) return;
    const cpu = Math.round((cpuSeconds() - this.start.cpu) * 100) / 100;
    const line = { file: this.testPath, cpu, wall: (Date.now() - this.start.wall) / 1000 };
    fs.appendFileSync(this.out, JSON.stringify(line) + "\n");
  }
}

module.exports = CpuByFileEnvironment;
