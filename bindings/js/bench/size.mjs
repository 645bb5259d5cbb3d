// What a .wasm file is made of: its size raw and gzip, its sections, and (when the file has a
// name section, i.e. was built without `strip`) the largest functions and the code per crate.
//
// Usage: node bench/size.mjs [file.wasm]    (default: dist/v4a.wasm)

import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const file = process.argv[2] ?? new URL("../dist/v4a.wasm", import.meta.url);
const bytes = readFileSync(file);
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`${file}: ${kb(bytes.length)} raw, ${kb(gzipSync(bytes, { level: 9 }).length)} gzip -9`);

let pos = 8;
function leb() {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return result;
  }
}
const NAMES = ["custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount"];
const sections = [];
let codeStart = 0;
let nameSection = null;
let importedFunctions = 0;
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = leb();
  const start = pos;
  let label = NAMES[id] ?? `id ${id}`;
  if (id === 0) {
    const len = leb();
    const name = bytes.subarray(pos, pos + len).toString();
    label = `custom "${name}"`;
    if (name === "name") nameSection = [pos + len, start + size];
  }
  if (id === 10) codeStart = start;
  if (id === 2) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      pos += leb(); // module
      pos += leb(); // field
      const kind = bytes[pos++];
      if (kind === 0) {
        leb();
        importedFunctions++;
      } else pos += kind === 3 ? 2 : kind === 2 ? (bytes[pos] & 1 ? 3 : 2) : 3;
    }
  }
  sections.push({ label, size, gzip: gzipSync(bytes.subarray(start, start + size), { level: 9 }).length });
  pos = start + size;
}
console.log("\nsection              raw        gzip (alone)");
for (const s of sections) console.log(`${s.label.padEnd(20)} ${kb(s.size).padStart(10)} ${kb(s.gzip).padStart(11)}`);

if (nameSection !== null && codeStart > 0) {
  pos = codeStart;
  const count = leb();
  const sizes = [];
  for (let i = 0; i < count; i++) {
    const size = leb();
    sizes.push(size);
    pos += size;
  }
  const names = new Map();
  pos = nameSection[0];
  while (pos < nameSection[1]) {
    const sub = bytes[pos++];
    const size = leb();
    const end = pos + size;
    if (sub === 1) {
      const n = leb();
      for (let i = 0; i < n; i++) {
        const index = leb();
        const len = leb();
        names.set(index, bytes.subarray(pos, pos + len).toString());
        pos += len;
      }
    }
    pos = end;
  }
  const fns = sizes.map((size, i) => ({ size, name: names.get(i + importedFunctions) ?? `func ${i}` }));
  const crateOf = (name) => {
    if (name.startsWith("v4a_")) return "v4a_ffi (exports)";
    const legacy = /^_ZN(\d+)/.exec(name);
    if (legacy) {
      const first = name.substr(3 + legacy[1].length, Number(legacy[1]));
      const impl = /^_\$LT\$(?:_\$LT\$)?([a-z0-9_]+)\.\./.exec(first);
      return impl ? impl[1] : first;
    }
    const v0 = /Cs[0-9A-Za-z]+_(\d+)/.exec(name);
    if (v0) return name.substr(v0.index + v0[0].length, Number(v0[1]));
    const generic = /^_\$LT\$(?:_\$LT\$)?([a-z0-9_]+)\.\./.exec(name);
    if (generic) return generic[1];
    return "(other)";
  };
  const byCrate = new Map();
  for (const f of fns) byCrate.set(crateOf(f.name), (byCrate.get(crateOf(f.name)) ?? 0) + f.size);
  console.log("\ncode per crate (function bodies)");
  for (const [crate, size] of [...byCrate].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    console.log(`${crate.padEnd(28)} ${kb(size).padStart(10)}`);
  }
  console.log("\nlargest functions");
  for (const f of fns.sort((a, b) => b.size - a.size).slice(0, 12)) {
    console.log(`${kb(f.size).padStart(10)}  ${f.name.slice(0, 110)}`);
  }
}
