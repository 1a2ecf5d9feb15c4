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
  // The end-to-end tests run the real Pulumi CLI; they must not share one file backend at once.
  maxWorkers: 2,
};
