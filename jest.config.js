/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // Type checking is done once by `tsc -p tsconfig.test.json`; jest only transpiles.
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.test.json", diagnostics: false }] },
  moduleFileExtensions: ["ts", "js", "json"],
  testTimeout: 120000,
  // The SDK's orphaned rejections when the engine stops a program must not fail a file whose tests passed.
  // Helpers' requests to an emulator never reuse a connection that sat idle while the process was blocked.
  setupFilesAfterEnv: ["<rootDir>/test/support/engine-gone-setup.ts", "<rootDir>/test/support/fresh-connection-setup.ts"],
  // Three workers on two cores: an end-to-end file waits on the CLI, the emulator's pace and injected
  // faults for part of its time, and a third file uses that idle core (measured: see CONTRIBUTING.md).
  maxWorkers: 3,
  // The long end-to-end files first, also on a fresh clone that has no durations from an earlier run.
  testSequencer: "<rootDir>/test/support/longest-first-sequencer.js",
};
