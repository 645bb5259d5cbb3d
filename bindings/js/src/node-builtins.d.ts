// The two Node built-ins init() loads on demand (only in Node), declared here so the package
// builds without @types/node.
declare module "node:fs/promises" {
  export function readFile(path: string): Promise<Uint8Array<ArrayBuffer>>;
}
declare module "node:url" {
  export function fileURLToPath(url: string | URL): string;
}
