// Lets plain `node` load the demo and the TypeScript examples without a build step (ts-node is not
// a dependency): each .ts file is transpiled on load with the project's own TypeScript.
"use strict";
const fs = require("node:fs");
const ts = require("typescript");

require.extensions[".ts"] = function loadTypeScript(module, filename) {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, "utf8"), {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, inlineSourceMap: true },
  });
  module._compile(outputText, filename);
};
