// Every test file (jest.config.js, setupFilesAfterEnv): the SDK's orphaned rejections when the engine
// goes away mid-program are marked handled (see engine-gone.ts).
import { engineWentAway, markRejectionsHandled } from "./engine-gone";

let stop: (() => void) | undefined;

// In hooks, not at load: Jest replaces the process's rejection listeners when a file starts running.
beforeAll(() => {
  stop = markRejectionsHandled(engineWentAway);
});
afterAll(() => {
  stop?.();
});
