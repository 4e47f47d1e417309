// Node (the "node" condition of a protocol's entry): instantiates the wasm from the file beside
// it before the entry's loader runs, whose init() then has nothing to do (Node's fetch cannot
// read a file: URL). scripts/build-pkg.sh puts this file at <entry>/raw/node-init.js.
// The file's path is computed, not written `new URL("./…", import.meta.url)`: a server bundle
// (Next.js) would turn that pattern into an asset URL that readFileSync cannot read.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { initSync } from "./glue.js";

initSync({ module: readFileSync(join(dirname(fileURLToPath(import.meta.url)), "agentwire_bg.wasm")) });
