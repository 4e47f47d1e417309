// Hardens wasm-bindgen's JS glue against hostile arguments (scripts/build-pkg.sh runs it on the
// generated glue before minifying). wasm-bindgen 0.2.130 checks neither the class of `this` nor
// the types of arguments in release builds:
// - a method called with another class's object as `this` (`AgentStore.prototype.getSnapshot
//   .call(client)`) made the Rust side read and write that object's memory as its own: panics
//   (the module refuses every later call), hangs, corrupted objects;
// - a string parameter given a non-string (`client.approve(event)`, `store.task(42)`) handed the
//   allocator a pointer it never allocated (`RuntimeError: memory access out of bounds`);
// - `feed(chunk)` given an ArrayBuffer or a DataView fed nothing, a string fed NUL bytes, a
//   Uint16Array its elements cut to 8 bits, `{length: -1}` trapped in malloc.
// Each becomes an `Error` with code `invalid-argument` (ArrayBuffer and DataView are read as
// their bytes; a `number[]`, which the types allow, as before: each number taken modulo 256). Fails when the glue does not have the expected shape (another wasm-bindgen).
//   node scripts/lib/harden-glue.mjs GLUE.js...
import fs from "node:fs";

const CLASSES = ["AgentClient", "AgentStore", "EventStream", "StreamDecoder", "WorkerClient"];
const ERR = `function awArgError(m){const e=new Error(m);e.name="AgentwireError";e.code="invalid-argument";return e}
function awBytes(arg){if(arg instanceof Uint8Array)return arg;
if(ArrayBuffer.isView(arg)&&(arg instanceof DataView||arg.BYTES_PER_ELEMENT===1))return new Uint8Array(arg.buffer,arg.byteOffset,arg.byteLength);
if(arg instanceof ArrayBuffer||(typeof SharedArrayBuffer!=="undefined"&&arg instanceof SharedArrayBuffer))return new Uint8Array(arg);
if(Array.isArray(arg))return Uint8Array.from(arg);
throw awArgError(\`expected bytes (a Uint8Array), got \${typeof arg==="string"?"a string (use feedText)":Object.prototype.toString.call(arg)}\`)}
`;
const BRAND = `
for(const C of [${CLASSES.join(",")}]){const P=C.prototype;
for(const k of Reflect.ownKeys(P)){if(k==="constructor")continue;const d=Object.getOwnPropertyDescriptor(P,k);if(!d.configurable)continue;
for(const a of ["value","get","set"]){const f=d[a];if(typeof f!=="function")continue;const n=f.name;
d[a]={[n](...args){if(!(this instanceof C))throw awArgError(\`\${C.name}.\${String(k)} called on \${this==null?String(this):"an object that is not an "+C.name}: call it as a method of an \${C.name} (wrap it, or bind it to its object)\`);return f.apply(this,args)}}[n]}
Object.defineProperty(P,k,d)}}
`;
const patches = [
  ["function passArray8ToWasm0(arg, malloc) {\n", "function passArray8ToWasm0(arg, malloc) {\n    arg = awBytes(arg);\n"],
  ["function passStringToWasm0(arg, malloc, realloc) {\n",
    "function passStringToWasm0(arg, malloc, realloc) {\n    if (typeof arg !== \"string\") throw awArgError(`expected a string, got ${arg === null ? \"null\" : typeof arg}`);\n"],
];
for (const file of process.argv.slice(2)) {
  let s = fs.readFileSync(file, "utf8");
  for (const [from, to] of patches) {
    if (s.split(from).length !== 2) throw new Error(`${file}: expected one ${JSON.stringify(from)}`);
    s = s.replace(from, to);
  }
  for (const c of CLASSES) {
    if (!s.includes(`export class ${c} {`)) throw new Error(`${file}: class ${c} missing`);
  }
  s += "\n" + ERR + BRAND;
  fs.writeFileSync(file, s);
}
