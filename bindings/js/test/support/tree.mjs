// Reads a folder of files into a Map from relative path ('/'-separated) to bytes.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function readTree(dir) {
  const files = new Map();
  const walk = (sub) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const rel = sub === "" ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else files.set(rel, new Uint8Array(readFileSync(join(dir, rel))));
    }
  };
  if (existsSync(dir)) walk("");
  return files;
}
