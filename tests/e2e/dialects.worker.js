// Runs one of the A2A SDK interop tests (dialects.test.js `sdkTests`, named by the query string)
// in a Web Worker and posts {ok, detail} or {ok: false, error} back. The worker loads the same
// built package.
const name = decodeURIComponent(self.location.search.slice(1));
try {
  const { default: init, ...aw } = await import("/pkg/agentwire.js");
  const { sdkTests } = await import("./dialects.test.js");
  await init();
  const detail = await sdkTests[name](aw);
  self.postMessage({ ok: true, detail: detail ?? "" });
} catch (e) {
  self.postMessage({ ok: false, error: String((e && e.stack) || e) + (e && e.code ? ` [code ${e.code}]` : "") });
}
