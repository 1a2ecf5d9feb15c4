// jest's globalTeardown: ends the test stacks' secrets provider, then fails the run if a test changed
// a shared build output in place (test/support/shared-outputs.ts).
import compareSharedOutputs from "./shared-outputs-global-teardown";
import { stopKeeperProcess } from "./transit-keeper";

export default function globalTeardown(): void {
  stopKeeperProcess();
  compareSharedOutputs();
}
