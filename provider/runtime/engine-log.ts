// Messages from the provider to the person running `pulumi preview` / `up` (what a create will adopt,
// a deprecated input). Pulumi starts every provider plugin with the engine's address as its first
// argument and the engine serves a Log call there; native providers log through it, but the Node
// dynamic-provider host never connects. This module does, lazily, only inside that host process.
// Elsewhere (the program process, unit tests) the notes are kept in memory, where tests can read them.

export type Severity = "info" | "warning";

const said = new Set<string>();
const kept: { severity: Severity; message: string }[] = [];

export interface EngineLink {
  log(severity: Severity, message: string, urn: string | undefined): Promise<void>;
}
let link: EngineLink | null | undefined;

/**
 * The engine connection of a process that is not the dynamic-provider host: the provider plugin
 * (provider/plugin) knows its engine's address and hands its own link over.
 */
export function useEngineLink(engine: EngineLink): void {
  link = engine;
}

/** The engine's address when this process is Pulumi's Node dynamic-provider host, else undefined. */
function engineAddress(): string | undefined {
  const script = process.argv[1] ?? "";
  if (!/[\\/]cmd[\\/]dynamic-provider([\\/]index(\.js)?)?$/.test(script)) return undefined;
  // Logging flags (`--logtostderr`, `-v=9`, `--tracing <url>`) may come first; the address comes last.
  const address = process.argv.slice(2).reverse().find((arg) => /^(\[[0-9a-fA-F:.]+\]|[\w.-]+):\d+$/.test(arg));
  return address;
}

function connect(): EngineLink | null {
  const address = engineAddress();
  if (address === undefined) return null;
  try {
    // Loaded from the SDK that hosts this process: the runtime has no gRPC dependency of its own.
    const grpc = require("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
    const services = require("@pulumi/pulumi/proto/engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
    const messages = require("@pulumi/pulumi/proto/engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb");
    const client = new services.EngineClient(address, grpc.credentials.createInsecure());
    return {
      log: (severity, message, urn) => new Promise<void>((resolve) => {
        const req = new messages.LogRequest();
        req.setSeverity(severity === "warning" ? messages.LogSeverity.WARNING : messages.LogSeverity.INFO);
        req.setMessage(message);
        if (urn !== undefined) req.setUrn(urn);
        // A note that cannot be delivered must never fail the operation it describes.
        client.log(req, () => resolve());
      }),
    };
  } catch {
    return null;
  }
}

/** Shows `message` once per process in the CLI's diagnostics (once per deployment: one host serves it). */
export async function noteForTheUser(severity: Severity, message: string, urn?: string): Promise<void> {
  if (said.has(message)) return;
  said.add(message);
  if (link === undefined) link = connect();
  if (link === null) {
    kept.push({ severity, message });
    return;
  }
  await link.log(severity, message, urn);
}

/** What was noted in a process without an engine (for tests). */
export function notesKept(): ReadonlyArray<{ severity: Severity; message: string }> {
  return kept;
}
