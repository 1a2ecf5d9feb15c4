// The fault campaign on the provider plugin's route: kill -9 of the CLI and of
// pulumi-resource-wsbridge mid-up, then up again; creates the server applied and then cut or answered
// 502. Each converges: every workspace once on the server, the state holds exactly those, a clean
// preview. The plugin runs the same runtime as the dynamic route (the lookup before a retried create,
// the owner marker), but its own process, state shape and URN handling, so it gets the campaign too.
// The share of random 5xx and dropped connections is the client's retry policy alone, the same code on
// both routes: it runs on the dynamic route only.
import { describeFaultCampaign, FAULT_CASES, PLUGIN_ROUTE } from "../support/fault-campaign";

describeFaultCampaign(PLUGIN_ROUTE, [FAULT_CASES.cut, FAULT_CASES.gateway]);
