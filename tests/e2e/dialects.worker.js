// Runs one interop test against an official SDK's server in a Web Worker (the page's CSP,
// connect-src 'self', forbids another origin; a worker script has no such policy) and posts
// {ok, detail} or {ok: false, error} back. The query names the test: `?file=F&name=N` runs the
// export `liveTests[N]` of ./F (`?N` alone: dialects.test.js `sdkTests[N]`). The worker loads
// the same built package.
const q = new URLSearchParams(self.location.search);
const file = q.get("file");
const name = file ? q.get("name") : decodeURIComponent(self.location.search.slice(1));
try {
  const { default: init, ...aw } = await import("/pkg/agentwire.js");
  const mod = await import(`./${file ?? "dialects.test.js"}`);
  const table = file ? mod.liveTests : mod.sdkTests;
  await init();
  const detail = await table[name](aw);
  self.postMessage({ ok: true, detail: detail ?? "" });
} catch (e) {
  self.postMessage({ ok: false, error: String((e && e.stack) || e) + (e && e.code ? ` [code ${e.code}]` : "") });
}
