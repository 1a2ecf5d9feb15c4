// jest's globalSetup, in its own process before any test file: records the shared build outputs
// (test/support/shared-outputs.ts) and starts the test stacks' secrets provider (transit-keeper.ts).
import recordSharedOutputs from "./shared-outputs-global-setup";
import { startKeeperProcess } from "./transit-keeper";

export default async function globalSetup(): Promise<void> {
  recordSharedOutputs();
  await startKeeperProcess();
}
