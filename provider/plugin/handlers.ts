// Pulumi's ResourceProvider service (proto/pulumi/provider.proto): each call's protobuf message to the
// plain operation in resource-operations.ts, configure.ts or invoke.ts, and back. Loaded on the
// first call (main.ts), so the plugin prints its port before it loads the runtime.
import type * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import type { CheckFailure, PropertyChange, Props } from "../runtime/lifecycle";
import { fromStruct, secretKeysOf, toStruct, type Unwrapped } from "./properties";
import { changedSettings, configFailures, configSourceOf, configureRuntime } from "./configure";
import { checkResource, createResource, deleteResource, diffResource, readResource, updateResource } from "./resource-operations";
import { invokeFunction } from "./invoke";
import { packageSchemaText, pluginVersion } from "../runtime/package-files";
import type { ConfigSource } from "../runtime/config";
import { cancelRequests } from "../runtime/api/cancellation";

type Handler<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => void;

/** A handler from an async function; a thrown error is the call's error, with its message. */
function unary<Req, Res>(run: (request: Req) => Promise<Res>): Handler<Req, Res> {
  return (call, callback) => {
    run(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => callback({ code: 2 /* UNKNOWN */, details: messageOf(error), name: "Error", message: messageOf(error) }),
    );
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function failuresOf(failures: readonly CheckFailure[]): pb.CheckFailure[] {
  return failures.map((f) => new pb.CheckFailure().setProperty(f.property).setReason(f.reason));
}

const KIND = pb.PropertyDiff.Kind;

function propertyDiffOf(change: PropertyChange): pb.PropertyDiff {
  const kind = change.kind === "add" ? (change.replace ? KIND.ADD_REPLACE : KIND.ADD)
    : change.kind === "delete" ? (change.replace ? KIND.DELETE_REPLACE : KIND.DELETE)
    : change.replace ? KIND.UPDATE_REPLACE : KIND.UPDATE;
  return new pb.PropertyDiff().setKind(kind).setInputdiff(change.inputDiff === true);
}

/** This provider's settings, as Configure recorded them (lookups use them too). */
let providerConfig: ConfigSource = configSourceOf({});

/** The provider's inputs: the token is always a secret in what the engine stores, even if it came in plain. */
function providerInputs(news: Unwrapped): pb.CheckResponse {
  const secrets = secretKeysOf(news);
  secrets.add("token");
  return new pb.CheckResponse().setInputs(toStruct(news.props, secrets)).setFailuresList(failuresOf(configFailures(news.props)));
}

export const handlers = {
  getPluginInfo: unary<Empty, PluginInfo>(async () => new PluginInfo().setVersion(pluginVersion())),

  getSchema: unary<pb.GetSchemaRequest, pb.GetSchemaResponse>(async () => new pb.GetSchemaResponse().setSchema(packageSchemaText())),

  checkConfig: unary<pb.CheckRequest, pb.CheckResponse>(async (req) => providerInputs(fromStruct(req.getNews()))),

  diffConfig: unary<pb.DiffRequest, pb.DiffResponse>(async (req) => {
    const olds = fromStruct(req.getOldInputs() ?? req.getOlds()).props;
    const changed = changedSettings(olds, fromStruct(req.getNews()).props);
    // A changed setting never replaces the resources: they are the same objects, reached another way.
    return new pb.DiffResponse()
      .setChanges(changed.length > 0 ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE)
      .setDiffsList(changed);
  }),

  configure: unary<pb.ConfigureRequest, pb.ConfigureResponse>(async (req) => {
    const args = req.getArgs();
    const inputs: Props = args !== undefined ? fromStruct(args).props : variablesOf(req);
    configureRuntime(inputs);
    providerConfig = configSourceOf(inputs);
    return new pb.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true).setAcceptresources(false).setAcceptoutputs(false);
  }),

  check: unary<pb.CheckRequest, pb.CheckResponse>(async (req) => {
    const news = fromStruct(req.getNews());
    const result = await checkResource(req.getType() || typeOf(req.getUrn()), req.getUrn(), fromStruct(req.getOlds()).props, news.props);
    return new pb.CheckResponse().setInputs(toStruct(result.inputs, news.secretKeys)).setFailuresList(failuresOf(result.failures));
  }),

  diff: unary<pb.DiffRequest, pb.DiffResponse>(async (req) => {
    const result = await diffResource(
      req.getType() || typeOf(req.getUrn()), req.getUrn(), req.getId(),
      fromStruct(req.getOlds()).props, fromStruct(req.getNews()).props, fromStruct(req.getOldInputs()).props,
    );
    const response = new pb.DiffResponse()
      .setChanges(result.changes ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE)
      .setReplacesList(result.replaces)
      .setDeletebeforereplace(result.deleteBeforeReplace)
      .setDiffsList(result.diffs)
      .setHasdetaileddiff(true);
    const detailed = response.getDetaileddiffMap();
    for (const change of result.detailedDiff) detailed.set(change.path, propertyDiffOf(change));
    return response;
  }),

  create: unary<pb.CreateRequest, pb.CreateResponse>(async (req) => {
    const news = fromStruct(req.getProperties());
    const { id, props } = await createResource(req.getType() || typeOf(req.getUrn()), req.getUrn(), news.props, req.getPreview());
    return new pb.CreateResponse().setId(id).setProperties(toStruct(props, news.secretKeys));
  }),

  read: unary<pb.ReadRequest, pb.ReadResponse>(async (req) => {
    const props = fromStruct(req.getProperties());
    const inputs = fromStruct(req.getInputs());
    const result = await readResource(req.getType() || typeOf(req.getUrn()), req.getUrn(), req.getId(), props.props, inputs.props);
    const response = new pb.ReadResponse().setId(result.id);
    if (result.id === "") return response;
    const secrets = secretKeysOf(props, inputs);
    if (result.props !== undefined) response.setProperties(toStruct(result.props, secrets));
    if (result.inputs !== undefined) response.setInputs(toStruct(result.inputs, secrets));
    return response;
  }),

  update: unary<pb.UpdateRequest, pb.UpdateResponse>(async (req) => {
    const olds = fromStruct(req.getOlds());
    const news = fromStruct(req.getNews());
    const props = await updateResource(
      req.getType() || typeOf(req.getUrn()), req.getUrn(), req.getId(), olds.props, news.props,
      fromStruct(req.getOldInputs()).props, req.getPreview(),
    );
    return new pb.UpdateResponse().setProperties(toStruct(props, secretKeysOf(olds, news)));
  }),

  delete: unary<pb.DeleteRequest, Empty>(async (req) => {
    await deleteResource(req.getType() || typeOf(req.getUrn()), req.getId(), fromStruct(req.getProperties()).props);
    return new Empty();
  }),

  invoke: unary<pb.InvokeRequest, pb.InvokeResponse>(async (req) => {
    const args = fromStruct(req.getArgs());
    const { result, failures } = await invokeFunction(req.getTok(), args.props, providerConfig);
    const response = new pb.InvokeResponse().setFailuresList(failuresOf(failures));
    if (result !== undefined) response.setReturn(toStruct(result, args.secretKeys));
    return response;
  }),

  // The engine's answer to a first Ctrl-C: nothing more is sent and no retry waits; requests on the
  // wire finish, so what they did is recorded (runtime/api/cancellation.ts).
  cancel: unary<Empty, Empty>(async () => {
    cancelRequests();
    return new Empty();
  }),

  // No mappings to other providers' schemas (what `pulumi convert` would ask for).
  getMapping: unary<pb.GetMappingRequest, pb.GetMappingResponse>(async () => new pb.GetMappingResponse()),
  getMappings: unary<pb.GetMappingsRequest, pb.GetMappingsResponse>(async () => new pb.GetMappingsResponse()),
};

/** The type token of a URN (older engines leave CheckRequest.type empty). */
function typeOf(urn: string): string {
  const parts = urn.split("::");
  return (parts[2] ?? "").split("$").pop() ?? "";
}

/** The legacy `variables` map (`wsbridge:config:<key>` → text), for an engine that sends no args. */
function variablesOf(req: pb.ConfigureRequest): Props {
  const out: Props = {};
  req.getVariablesMap().forEach((value, key) => {
    const at = key.lastIndexOf(":");
    out[at < 0 ? key : key.slice(at + 1)] = value;
  });
  return out;
}
