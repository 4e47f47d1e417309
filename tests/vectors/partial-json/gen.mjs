// Generates vectors.json and merge-vectors.json from the official Vercel AI SDK (the `ai`
// package installed under tests/ai-sdk/node_modules; no network).
//
//   node tests/vectors/partial-json/gen.mjs
//
// - parsePartialJson: the package's exported function (imported from its dist bundle).
// - fixJson and mergeObjects are not exported: their compiled text is cut out of the same
//   bundle (dist/index.js, `function fixJson(input) {` / `function mergeObjects(base,
//   overrides) {` up to the first line that is just `}`) and evaluated as is. Nothing is copied
//   or rewritten by hand.
//
// vectors.json: [{input, fixed, state, parsed?}], `parsed` absent when parsePartialJson gives
// undefined ("failed-parse"). Inputs are every prefix, by code point (a prefix never splits a
// surrogate pair: Rust strings cannot hold one), of the documents below, plus some garbage.
// merge-vectors.json: [{base, overrides, merged} | {base, overrides, throws}].
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const aiDir = join(here, '../../ai-sdk/node_modules/ai');
const bundlePath = join(aiDir, 'dist/index.js');
const { parsePartialJson } = await import(join(aiDir, 'dist/index.js'));
const version = JSON.parse(readFileSync(join(aiDir, 'package.json'), 'utf8')).version;

function cut(source, header) {
  const start = source.indexOf(header);
  if (start < 0) throw new Error(`${header} not found in ${bundlePath}`);
  const end = source.indexOf('\n}\n', start);
  if (end < 0) throw new Error(`end of ${header} not found`);
  return source.slice(start, end + 2);
}
const bundle = readFileSync(bundlePath, 'utf8');
const fixJson = new Function(`${cut(bundle, 'function fixJson(input) {')}\nreturn fixJson;`)();
const mergeObjects = new Function(
  `${cut(bundle, 'function mergeObjects(base, overrides) {')}\nreturn mergeObjects;`,
)();

const documents = [
  '{"name":"Ada","age":36,"admin":true,"tags":["x","y"],"spouse":null}',
  '[1, -2.5, 3e10, -4.25E-3, 0, 1e+5, 0.5, -0]',
  '{"a":{"b":{"c":[1,[2,[3,{"d":false}]]]}},"e":[]}',
  '{"text":"line1\\nline2\\t\\"quoted\\" back\\\\slash \\/ \\u00e9 \\u20AC \\b\\f\\r"}',
  '["\\ud83d\\ude00 smile", "x\\uD834\\uDD1Ey", "\\u00E9t\\u00e9"]',
  '{"greeting":"héllo wörld 日本語 😀🎉","emoji":"👩‍👩‍👧","ü":"ß"}',
  JSON.stringify({ user: { id: 7, roles: ['a', 'b'], ok: true }, list: [1.5, null, 'z'] }, null, 2),
  '\r\n\t[ true ,false , null,\t{ "t" : true, "f":false,"n" :null } ]\n',
  '[true,false,null,{"t":true,"f":false,"n":null}]',
  '"just a string with \\"quotes\\" and é"',
  '-12.5e-3',
  'true',
  'null',
  '{"a":{},"b":[],"c":[{}],"d":[[]],"e":[[],{}]}',
  '{"city":"San Francisco","unit":"celsius","days":[{"day":1,"temp":-3.5},{"day":2,"temp":4E2}]}',
  '{"k\\"ey":1,"\\u00e9t\\u00e9":"summer","a\\\\b":2,"":0}',
  '["a,b","]","}","{[",":","\\\\"]',
  '{"x":-0,"y":123456789,"z":1.5e-7,"w":-1E+2,"v":0.000001}',
  '[[[[[[]]]]],{"a":[{"b":[{"c":"d"}]}]}]',
  '{"ключ":"значение","😀":"🎉","arr":["𝄞","日"]}',
  '{"a":1,"__proto__":{"x":1},"b":2}',
  '{"constructor":{"prototype":{"y":1}},"z":3}',
  '{"a":1,"a":{"b":2},"c":[3,3]}',
];

const garbage = [
  '', ' ', 'abc', '{abc', '[1 😀', '[1😀', '[t😀', '[tru😀]', '{"a":tx}', '[1e+5]', '[--1]',
  '1 2', '}{', '][', '["a"b]', '{"a" "b"}', 'nul', 'nulll', '[nulll]', '{"a":nulx', '[1.]',
  '[.5]', '"\\u12', '"\\u12G4"', '"\\x"', '["\\😀"]', '{"a":1,}', '[1,]', '[,1]', 'truefalse',
  '"abc"def', '[1]]]', '{"a":{"b":1}}}', 'x[1', '{"é":', '["é', '[f😀]', '{"a":f😀}',
  '{"a":1😀}', '[-😀]', '- 1', '[1 , 2 ]', '\t\n{\r\n"a"\t:\n1\n}\n', '"\\ud800"', '"\\ud800',
  '["\\uDC00x"]', '[1 2 3]', '[true false]', '{"a":"b" "c":"d"}', '{"a":[1,2}', '{"a":tru}',
  '[fals', '[fa', 'tr', 'n', 'f', '-', '-1.', '1e', '1e-', '[1e', '{"a":-', '[-]', '{"a":"\\',
  '{"a":"\\u', '{"a":"\\u00', '{"a":"\\u00e9', '{"a', '{"a"', '{"a":', '{"a":1', '{"a":1,',
  '{"a":1,"', '[😀]', '😀', '"😀', '[1,😀]', '{😀}', '{"x":[1,{"y":"😀', '[[1],[2', 'nullnull',
  '[null,nul', '{"a":{"b":{"c":', '[[[[', '{{{', '"\\"', '"\\\\', '"\\\\"', '[1,2,3]  ',
];

function codePointPrefixes(doc) {
  const cps = Array.from(doc);
  const out = [];
  for (let n = 0; n <= cps.length; n++) out.push(cps.slice(0, n).join(''));
  return out;
}

const seen = new Set();
const inputs = [];
for (const doc of documents) {
  for (const p of codePointPrefixes(doc)) if (!seen.has(p)) (seen.add(p), inputs.push(p));
}
for (const g of garbage) if (!seen.has(g)) (seen.add(g), inputs.push(g));

const vectors = [];
for (const input of inputs) {
  if (!input.isWellFormed()) throw new Error(`input not well formed: ${JSON.stringify(input)}`);
  const fixed = fixJson(input);
  if (!fixed.isWellFormed()) throw new Error(`fixed not well formed: ${JSON.stringify(input)}`);
  const { value, state } = await parsePartialJson(input);
  const v = { input, fixed, state };
  if (value !== undefined) v.parsed = value;
  vectors.push(v);
}
writeFileSync(join(here, 'vectors.json'), `${JSON.stringify(vectors, null, 1)}\n`);

const mergeCases = [
  [{}, {}],
  [{ a: 1 }, { b: 2 }],
  [{ a: 1, b: 2 }, { b: 3 }],
  [{ a: { x: 1, y: 2 } }, { a: { y: 3, z: 4 } }],
  [{ a: { b: { c: 1, d: [1, 2] } } }, { a: { b: { d: [3], e: null } } }],
  [{ a: [1, 2, 3] }, { a: [4] }],
  [{ a: { x: 1 } }, { a: [1] }],
  [{ a: [1] }, { a: { x: 1 } }],
  [{ a: { x: 1 } }, { a: null }],
  [{ a: null }, { a: { x: 1 } }],
  [{ a: { x: 1 } }, { a: 5 }],
  [{ a: 5 }, { a: { x: 1 } }],
  [{ a: 's' }, { a: 't' }],
  [{ a: 1 }, JSON.parse('{"__proto__":{"polluted":true},"constructor":{"x":1},"prototype":2,"b":3}')],
  [JSON.parse('{"__proto__":{"k":1},"a":1}'), { a: 2 }],
  [{ toString: 1 }, { toString: { x: 1 } }],
  [{ a: 1 }, { toString: { x: 1 }, hasOwnProperty: 2 }],
  [{ b: 1, a: 2 }, { c: 3, 2: 'two', 1: 'one', a: 4 }],
  [{ 10: 'x', b: 1 }, { 9: 'y', a: 2 }],
  [[1, 2], { a: 1 }],
  [[{ x: 1 }, 2], [{ y: 2 }]],
  [{ a: 1 }, [3, 4]],
  [{ 0: { x: 1 }, a: 1 }, [{ y: 2 }]],
  [{ a: 1 }, 'hi'],
  [{ a: 1 }, '😀'],
  [{ a: 1 }, null],
  [{ a: 1 }, 5],
  [{ a: 1 }, true],
  [null, null],
  [5, null],
  ['ab', null],
  ['ab', []],
  [null, { a: 1 }],
  [5, { a: 1 }],
  ['ab', { 0: 'z' }],
  [true, [1]],
  [{ a: { b: 1 } }, { a: { b: { c: 1 } } }],
  [{ a: { b: { c: 1 } } }, { a: { b: 2 } }],
  [{ providerOptions: { openai: { a: 1 } } }, { providerOptions: { openai: { b: 2 }, anthropic: {} } }],
];
const mergeVectors = [];
for (const [base, overrides] of mergeCases) {
  try {
    mergeVectors.push({ base, overrides, merged: mergeObjects(base, overrides) });
  } catch (e) {
    mergeVectors.push({ base, overrides, throws: `${e.name}: ${e.message}` });
  }
}
writeFileSync(join(here, 'merge-vectors.json'), `${JSON.stringify(mergeVectors, null, 1)}\n`);
console.log(`ai@${version}: ${vectors.length} fix/parse vectors, ${mergeVectors.length} merge vectors`);
