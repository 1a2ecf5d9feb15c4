// The fault campaign on the dynamic route: `pulumi up` on the real CLI against the emulator,
// interrupted (kill -9 of the CLI, kill -9 of the dynamic-provider host) or faced with faults (creates
// applied and then cut or answered 502, a share of 5xx and dropped connections). Each case then runs
// `up` again (or once, when the faults alone must not stop it) and asserts convergence: every
// workspace of the program exists once on the server, nothing on the server that the state does not
// hold, and a clean preview. The moves are in support/fault-campaign.ts, shared with the plugin route.
import { describeFaultCampaign, DYNAMIC_ROUTE, FAULT_CASES } from "../support/fault-campaign";

describeFaultCampaign(DYNAMIC_ROUTE, [FAULT_CASES.cut, FAULT_CASES.gateway, FAULT_CASES.shares]);
