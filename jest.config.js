/** @type {import('jest').Config} */
module.exports = {
  // The node environment, which also tells what each file costs in CPU when WSBRIDGE_CPU_BY_FILE is set.
  testEnvironment: "<rootDir>/test/support/cpu-by-file-environment.js",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // Type checking is done once by `tsc -p tsconfig.test.json`; jest only strips the types, with esbuild.
  transform: { "^.+\\.ts$": "<rootDir>/test/support/typescript-transform.js" },
  moduleFileExtensions: ["ts", "js", "json"],
  testTimeout: 120000,
  // No test may change a build output that others read while it runs: recorded before, compared after
  // (test/support/shared-outputs.ts; CONTRIBUTING.md, "Tests"). And the test stacks' secrets provider
  // runs for the whole run (test/support/transit-keeper.ts).
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  // The SDK's orphaned rejections when the engine stops a program must not fail a file whose tests passed.
  // Helpers' requests to an emulator never reuse a connection that sat idle while the process was blocked.
  setupFilesAfterEnv: ["<rootDir>/test/support/engine-gone-setup.ts", "<rootDir>/test/support/fresh-connection-setup.ts"],
  // Three workers on two cores: an end-to-end file waits on the CLI, the emulator's pace and injected
  // faults for part of its time, and a third file uses that idle core (measured: see CONTRIBUTING.md).
  maxWorkers: 3,
  // jest-worker sends each worker END, then force-kills any whose exit it has not seen 500 ms later and
  // prints "A worker process has failed to exit gracefully". Measured on a full run (CONTRIBUTING.md,
  // "Tests"): no handle or timer keeps a worker alive (its 'exit' event fires within 1 ms of END), but
  // by then each worker holds 1.4-2.2 GB, and the process takes 0.7-1.2 s more to tear that down before
  // it ends. A longer grace keeps the warning for a worker that really hangs.
  workerGracefulExitTimeout: 5000,
  // The long end-to-end files first, also on a fresh clone that has no durations from an earlier run.
  testSequencer: "<rootDir>/test/support/longest-first-sequencer.js",
};
