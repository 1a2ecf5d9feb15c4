// pulumi-resource-wsbridge: the package's resource provider plugin. The engine starts it with its own
// address as the last argument and reads the port from the first line this prints; nothing else may
// reach stdout before. To be ready fast, this loads only gRPC and the protocol's messages; the
// handlers (and with them the runtime: HTTP client, validation) load on the first call.
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";

type Handlers = typeof import("./handlers").handlers;

let loaded: Handlers | undefined;
function handlers(): Handlers {
  if (loaded === undefined) {
    loaded = (require("./handlers") as typeof import("./handlers")).handlers;
    const address = engineAddress(process.argv.slice(2));
    if (address !== undefined) {
      const { useEngineLink } = require("../runtime/engine-log") as typeof import("../runtime/engine-log");
      const { engineLink } = require("./engine-link") as typeof import("./engine-link");
      useEngineLink(engineLink(address));
    }
  }
  return loaded;
}

/** The engine's address: the last `host:port` argument (logging flags such as `-v=9` may come first). */
export function engineAddress(args: readonly string[]): string | undefined {
  return [...args].reverse().find((arg) => /^(\[[0-9a-fA-F:.]+\]|[\w.-]+):\d+$/.test(arg));
}

/** Every method of the service, each forwarding to its handler once loaded (unknown ones: UNIMPLEMENTED). */
function implementation(): grpc.UntypedServiceImplementation {
  const methods: grpc.UntypedServiceImplementation = {};
  for (const name of Object.keys(ResourceProviderService)) {
    const method = name.charAt(0).toLowerCase() + name.slice(1);
    methods[method] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const handler = (handlers() as Record<string, ((c: typeof call, cb: typeof callback) => void) | undefined>)[method];
      if (handler === undefined) {
        callback({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by pulumi-resource-wsbridge` });
        return;
      }
      handler(call, callback);
    };
  }
  return methods;
}

/** The process that started the plugin, read first thing: it may be gone before the plugin listens. */
const parent = process.ppid;

/**
 * Whether the engine that started the plugin is gone (killed). POSIX hands an orphan to another parent;
 * Windows re-parents nothing, so there the engine's pid stops answering instead (signal 0 only asks).
 */
export function engineGone(startedBy: number): boolean {
  if (process.ppid !== startedBy) return true;
  try {
    process.kill(startedBy, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Ends the plugin when the engine that started it is gone, instead of lingering. */
function exitWithTheEngine(): void {
  setInterval(() => {
    if (engineGone(parent)) process.exit(0);
  }, 1000).unref();
}

/** Starts the plugin: listens on a free local port and prints it. */
export function serve(): void {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(ResourceProviderService, implementation());
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
    if (error) {
      process.stderr.write(`pulumi-resource-wsbridge: cannot listen: ${error.message}\n`);
      process.exit(1);
    }
    process.stdout.write(`${port}\n`);
    exitWithTheEngine();
  });
}
