// pulumi-resource-wsbridge.js, as the plugin archive ships it (scripts/build-plugin.js): loads the
// bundle beside it with V8's code cache. Compiling the 2 MB bundle was most of the plugin's start
// time; with the cache it is read instead. The cache is made for the Node.js that built the archive;
// under another Node.js V8 rejects it, the bundle is compiled as usual, and a fresh cache is written
// beside it once the plugin serves (best effort: a read-only plugin folder just stays uncached).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const Module = require("node:module");

const bundle = path.join(__dirname, "pulumi-resource-wsbridge.bundle.js");
const cacheFile = `${bundle}.cache`;

let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const script = new vm.Script(Module.wrap(fs.readFileSync(bundle, "utf8")), { filename: bundle, cachedData });
const bundleModule = new Module(bundle, module);
bundleModule.filename = bundle;
bundleModule.paths = Module._nodeModulePaths(__dirname);
script.runInThisContext().call(bundleModule.exports, bundleModule.exports, (id) => bundleModule.require(id), bundleModule, bundle, __dirname);

if (cachedData === undefined || script.cachedDataRejected) {
  // After the start, so the cache holds what starting compiled; written whole, then renamed into place.
  setTimeout(() => {
    try {
      const partial = `${cacheFile}.${process.pid}`;
      fs.writeFileSync(partial, script.createCachedData());
      fs.renameSync(partial, cacheFile);
    } catch {
      // A plugin folder the user cannot write: the plugin works, only without the cache.
    }
  }, 500).unref();
}
