// Every test file (jest.config.js, setupFilesAfterEnv): the SDK's orphaned rejections when the engine
// goes away mid-program are marked handled (see engine-gone.ts). A handler attached a tick later makes
// Node report the rejection handled (rejectionHandled), and Jest then drops it from the file's errors.
import { engineWentAway, realProcess } from "./engine-gone";

const markHandled = (reason: unknown, promise: Promise<unknown>): void => {
  if (engineWentAway(reason)) setImmediate(() => promise.catch(() => undefined));
};

// In hooks, not at load: Jest replaces the process's rejection listeners when a file starts running.
beforeAll(() => {
  realProcess.on("unhandledRejection", markHandled);
});
afterAll(() => {
  realProcess.off("unhandledRejection", markHandled);
});
