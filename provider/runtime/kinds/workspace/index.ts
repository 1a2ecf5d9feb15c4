// Workspace lifecycle: check, diff, create, read, update, delete, and the plugin route's previews and
// import, one file per step (the kind's facts in fields.ts, the comparisons in compare.ts, the state's
// shape in state.ts). Shape shared by every kind: validate → build the request → call the client → map
// to outputs.
//
// Managed means declared: an optional input the program leaves out is neither sent nor compared.
// The outputs hold the server's value of every input-named property (in the input's shape), so diff
// compares what the program declares with what the server last reported, after normalizing both.
export { check } from "./check";
export { diff } from "./diff";
export { create } from "./create";
export { read } from "./read";
export { update } from "./update";
export { remove } from "./delete";
export { previewCreate, previewUpdate } from "./preview";
export { importById } from "./import";
export type {
  CheckedWorkspaceInputs, EffectiveTagBindingOutput, VcsRepoOutput, WorkspaceOutputs, WorkspaceReport, WorkspaceState,
} from "./fields";
