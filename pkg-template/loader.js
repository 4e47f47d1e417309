// Instantiates this build's wasm before anything uses it: the web target's glue (glue.js) given
// the wasm's URL. `new URL("./agentwire_bg.wasm", import.meta.url)` is an asset to Vite, webpack 5
// and Next.js with no setting, and fetching it needs no WebAssembly/ESM integration from the
// bundler. scripts/build-pkg.sh puts this file at raw/agentwire.js of `agentwire` and of each
// protocol's entry.
import init from "./glue.js";

await init({ module_or_path: new URL("./agentwire_bg.wasm", import.meta.url) });
export * from "./glue.js";
