// Notes to the person running `pulumi` (runtime/engine-log.ts) go to the engine's Log service, at the
// address the engine started the plugin with. The client is made on the first note.
import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import type { EngineLink } from "../runtime/engine-log";

export function engineLink(address: string): EngineLink {
  let client: EngineClient | undefined;
  return {
    log: (severity, message, urn) => new Promise<void>((resolve) => {
      client ??= new EngineClient(address, grpc.credentials.createInsecure());
      const req = new LogRequest()
        .setSeverity(severity === "warning" ? LogSeverity.WARNING : LogSeverity.INFO)
        .setMessage(message);
      if (urn !== undefined) req.setUrn(urn);
      // A note that cannot be delivered must never fail the operation it describes.
      client.log(req, () => resolve());
    }),
  };
}
