// The Node built-ins the package loads on demand (only in Node), declared here so it builds
// without @types/node.
declare module "node:fs/promises" {
  export function readFile(path: string): Promise<Uint8Array<ArrayBuffer>>;
}
declare module "node:fs" {
  export function readFileSync(path: string): Uint8Array<ArrayBuffer>;
}
declare module "node:url" {
  export function fileURLToPath(url: string | URL): string;
}
