// The WebAssembly module and its memory: loading, the struct layouts of the C ABI on wasm32
// (4-byte pointers and size_t), inputs copied in, views copied out, and traps turned into
// INTERNAL errors. Everything above this file speaks JavaScript values only.

import { defaultWasmUrl, readDefaultWasmSync } from "./location.js";
import { V4AError, noDiagnostics, setCategory, STATUS_NAMES, type Diagnostics } from "./errors.js";

/** The C ABI version this package was written against (`V4A_ABI_VERSION`). */
export const ABI_VERSION = 2;

/**
 * Struct sizes on wasm32, in the order of `v4a_wasm_layout`: v4a_bytes, v4a_u32s, v4a_error,
 * v4a_op, v4a_source, v4a_file_result, v4a_hunk_report, v4a_diff_line, v4a_segment,
 * v4a_change, v4a_options, v4a_generate_options, v4a_unified_diff_input, v4a_line_pair,
 * v4a_diff_columns. Checked against the module at start-up.
 */
export const LAYOUT = [8, 8, 88, 40, 16, 28, 48, 32, 16, 20, 72, 12, 48, 24, 48] as const;
export const SIZE = {
  bytes: 8,
  error: 88,
  op: 40,
  source: 16,
  fileResult: 28,
  hunk: 48,
  diffLine: 32,
  segment: 16,
  change: 20,
  options: 72,
  linePair: 24,
  diffColumns: 48,
  generateOptions: 12,
  unifiedDiffInput: 48,
} as const;

/** What can be given to `init()`: the module, its bytes, a response or where to fetch it. */
export type WasmInput =
  | WebAssembly.Module
  | BufferSource
  | Response
  | PromiseLike<Response>
  | URL
  | string;

/** The exports of v4a.wasm (the C ABI, plus the allocator and layout of wasm.rs). */
// The functions take and return numbers (pointers, lengths, statuses); checked by name.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Fn = (...args: any[]) => any;
export interface Exports {
  memory: WebAssembly.Memory;
  [name: string]: Fn | WebAssembly.Memory | WebAssembly.Global;
}

let compiledModule: WebAssembly.Module | null = null;
let exp: Record<string, Fn> | null = null;
let memory: WebAssembly.Memory | null = null;
let scratch = 0;
/** Incremented on every instantiation: pointers of an older instance are never freed. */
let generation = 0;
let buffer: ArrayBuffer | null = null;
let bytesView = new Uint8Array(0);
let dataView = new DataView(new ArrayBuffer(0));

/** Node's Buffer, where there is one (not in browsers): used to decode ASCII outputs. */
interface NodeBytes {
  toString(encoding: "latin1", start: number, end: number): string;
}
type NodeBufferClass = { from(buffer: ArrayBuffer): NodeBytes };
const NodeBuffer = (globalThis as { Buffer?: NodeBufferClass }).Buffer;
/** The module's memory as a Node Buffer (null outside Node), refreshed with the other views. */
let nodeBytes: NodeBytes | null = null;
/** Outputs at least this long are checked for ASCII first (below it, one decode is cheaper). */
const ASCII_MIN = 256;

const encoder = new TextEncoder();
// ignoreBOM: a leading U+FEFF is text to keep, never a marker to drop.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

function isNode(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof proc?.versions?.node === "string";
}

async function compile(input: WasmInput): Promise<WebAssembly.Module> {
  if (input instanceof WebAssembly.Module) return input;
  if (typeof input === "string" || input instanceof URL) {
    const url = typeof input === "string" ? input : input.href;
    if (isNode() && !/^https?:/i.test(url)) {
      const fs = await import("node:fs/promises");
      const path = url.startsWith("file:") ? (await import("node:url")).fileURLToPath(url) : url;
      return WebAssembly.compile(await fs.readFile(path));
    }
    return compile(fetch(url));
  }
  if (ArrayBuffer.isView(input) || input instanceof ArrayBuffer) {
    return WebAssembly.compile(input);
  }
  const response = await (input as PromiseLike<Response>);
  if (!response.ok) {
    throw new Error(`v4a: fetching v4a.wasm failed: HTTP ${response.status} ${response.url}`);
  }
  if (
    typeof WebAssembly.compileStreaming === "function" &&
    response.headers.get("content-type")?.startsWith("application/wasm")
  ) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

function install(compiled: WebAssembly.Module): void {
  const instance = new WebAssembly.Instance(compiled, {});
  const e = instance.exports as unknown as Exports;
  const fns = e as unknown as Record<string, Fn>;
  const required = [
    "v4a_wasm_alloc",
    "v4a_wasm_free",
    "v4a_wasm_layout",
    "v4a_wasm_is_ascii",
    "v4a_apply",
  ];
  for (const name of required) {
    if (typeof fns[name] !== "function") {
      throw new Error(`v4a: this is not a v4a.wasm module (no export ${name})`);
    }
  }
  const abi = fns.v4a_abi_version!() as number;
  if (abi !== ABI_VERSION) {
    throw new Error(`v4a: v4a.wasm has ABI version ${abi}; this package needs ${ABI_VERSION}`);
  }
  const previous = { compiledModule, exp, memory, scratch };
  compiledModule = compiled;
  exp = fns;
  generation++;
  memory = e.memory;
  buffer = null;
  refresh();
  try {
    scratch = fns.v4a_wasm_alloc!(SCRATCH_SIZE) as number;
    const count = fns.v4a_wasm_layout!(scratch, 16) as number;
    refresh();
    const sizes = Array.from({ length: count }, (_, i) => u32(scratch + 4 * i));
    if (sizes.length !== LAYOUT.length || sizes.some((s, i) => s !== LAYOUT[i])) {
      throw new Error(
        `v4a: the struct layout of v4a.wasm (${sizes.join(",")}) is not the one this package ` +
          `reads (${LAYOUT.join(",")}): rebuild the package against this engine`,
      );
    }
    for (let code = 0; code < STATUS_NAMES.length; code++) {
      setCategory(STATUS_NAMES[code]!, cString(fns.v4a_status_category!(code) as number));
    }
  } catch (err) {
    ({ compiledModule, exp, memory, scratch } = previous);
    buffer = null;
    if (memory !== null) refresh();
    throw err;
  }
}

/**
 * Loads the engine. Without an argument it loads the v4a.wasm shipped beside the package
 * (from disk in Node, with `fetch` in a browser); otherwise from the given module, bytes,
 * response or URL. Every other call is synchronous and needs this (or `initSync`) first.
 * Calling it again without an argument once loaded does nothing.
 */
export async function init(input?: WasmInput): Promise<void> {
  if (input === undefined && exp !== null) return;
  install(await compile(input ?? defaultWasmUrl()));
}

/**
 * Loads the engine synchronously: from the given module or bytes, or (in Node) from the
 * v4a.wasm shipped with the package. Browsers limit synchronous compilation on the main
 * thread; use `await init()` there.
 */
export function initSync(input?: WebAssembly.Module | BufferSource): void {
  if (input === undefined && exp !== null) return;
  const source = input ?? readDefaultWasmSync();
  install(source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source));
}

/**
 * The size in bytes of the engine's WebAssembly memory (0 before `init`). It grows with the
 * largest inputs seen and never shrinks.
 */
export function memorySize(): number {
  return memory === null ? 0 : memory.buffer.byteLength;
}

/** Whether the engine is loaded. */
export function isReady(): boolean {
  return exp !== null;
}

function refresh(): void {
  const current = memory!.buffer;
  if (current !== buffer) {
    buffer = current;
    bytesView = new Uint8Array(current);
    dataView = new DataView(current);
    nodeBytes = typeof NodeBuffer?.from === "function" ? NodeBuffer.from(current) : null;
  }
}

/** The module's exports; throws when `init()` has not run. */
export function wasm(): Record<string, Fn> {
  if (exp === null) {
    throw new Error("v4a: call `await init()` (or `initSync()`) before using the engine");
  }
  return exp;
}

/** The module's memory as bytes (a fresh view after the memory grew). */
export function mem(): Uint8Array {
  refresh();
  return bytesView;
}

// The views are refreshed after every call into the module (the only time its memory can
// grow), so a read is one DataView access.
export function u32(ptr: number): number {
  return dataView.getUint32(ptr, true);
}

export function f64(ptr: number): number {
  return dataView.getFloat64(ptr, true);
}

export function u64(ptr: number): bigint {
  return dataView.getBigUint64(ptr, true);
}

export function setU32(ptr: number, value: number): void {
  dataView.setUint32(ptr, value, true);
}

export function setU64(ptr: number, value: bigint): void {
  dataView.setBigUint64(ptr, value, true);
}

/**
 * The scratch buffer's size: out-pointers (offset 40), structs returned by value (48) and,
 * from offset 64, the `v4a_diff_columns` of a structured diff (44 bytes).
 */
const SCRATCH_SIZE = 128;

/** A 128-byte buffer owned by the module for out-pointers and returned structs. */
export function scratchPtr(): number {
  return scratch;
}

/**
 * Decodes `len` bytes at `ptr` (a BOM is kept). In Node, a large output that the module finds
 * all ASCII is copied into a string by Buffer's latin1 decoding (the same characters, no UTF-8
 * decoding pass); anything else, and everything in a browser, goes through TextDecoder.
 */
export function decode(ptr: number, len: number): string {
  if (len === 0) return "";
  refresh();
  if (len >= ASCII_MIN && nodeBytes !== null && exp!.v4a_wasm_is_ascii!(ptr, len) === 1) {
    return nodeBytes.toString("latin1", ptr, ptr + len);
  }
  return decoder.decode(bytesView.subarray(ptr, ptr + len));
}

/** A copy of `len` bytes at `ptr`. */
export function copyBytes(ptr: number, len: number): Uint8Array {
  return mem().slice(ptr, ptr + len);
}

/** A NUL-terminated string at `ptr`. */
export function cString(ptr: number): string {
  const m = mem();
  let end = ptr;
  while (m[end] !== 0) end++;
  return decode(ptr, end - ptr);
}

/** Reads a `v4a_bytes` view at `at`: the string, or null when absent (`{NULL, 0}`). */
export function viewString(at: number): string | null {
  const ptr = u32(at);
  return ptr === 0 ? null : decode(ptr, u32(at + 4));
}

/** Reads a `v4a_u32s` view at `at`. */
export function viewU32s(at: number): number[] {
  const ptr = u32(at);
  const len = u32(at + 4);
  const out = new Array<number>(len);
  for (let i = 0; i < len; i++) out[i] = u32(ptr + 4 * i);
  return out;
}

/** Calls an export that returns a struct through a hidden first pointer (sret); `at` is it. */
export function callView(name: string, ...args: number[]): number {
  const at = scratch + 48;
  call(name, at, ...args);
  return at;
}

/**
 * Calls an export. A trap (a panic inside the engine, which aborts on wasm, or memory
 * exhausted) drops the instance and reinstantiates the module, then throws an INTERNAL error.
 */
export function call(name: string, ...args: number[]): number {
  const fn = wasm()[name];
  if (fn === undefined) throw new Error(`v4a: v4a.wasm has no export ${name}`);
  try {
    const value = fn(...args) as number;
    refresh();
    return value;
  } catch (err) {
    if (err instanceof WebAssembly.RuntimeError) {
      const compiled = compiledModule!;
      exp = null;
      try {
        install(compiled);
      } catch {
        // Left unloaded: the next call asks for init().
      }
      throw new V4AError(
        16,
        `v4a: the engine stopped (${err.message}) in ${name}; this is a bug in v4a, please ` +
          `report it. The module was reloaded; handles and inputs of the call are gone.`,
      );
    }
    throw err;
  }
}

/** Reads a `v4a_error` at `ptr` into a V4AError. */
export function readError(ptr: number, fallbackStatus: number): V4AError {
  if (ptr === 0) return new V4AError(fallbackStatus, `v4a: status ${fallbackStatus}`);
  const offset = u64(ptr + 32);
  const closestStart = u32(ptr + 12);
  const diagnostics: Diagnostics = {
    ...noDiagnostics(),
    patchLine: u32(ptr + 4) || null,
    hunk: u32(ptr + 8) || null,
    closest:
      closestStart === 0
        ? null
        : { start: closestStart, end: u32(ptr + 16), similarity: f64(ptr + 24) },
    byteOffset: offset === 0xffffffffffffffffn ? null : Number(offset),
    path: viewString(ptr + 48),
    input: viewString(ptr + 56),
    suggestion: viewString(ptr + 64),
    correctedHunk: viewString(ptr + 72),
    candidates: viewU32s(ptr + 80),
  };
  return new V4AError(u32(ptr), viewString(ptr + 40) ?? "", diagnostics);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The UTF-16 index of the first lone surrogate of `s`, or -1. */
export function loneSurrogate(s: string): number {
  const wellFormed = (s as { isWellFormed?: () => boolean }).isWellFormed;
  if (typeof wellFormed === "function" && wellFormed.call(s)) return -1;
  const match = LONE_SURROGATE.exec(s);
  return match === null ? -1 : match.index;
}

/** Text given to the engine: a string (UTF-16, encoded to UTF-8) or bytes (passed as is). */
export type Input = string | Uint8Array;

/**
 * Inputs copied into the module's memory for one call, freed together by `free()`.
 */
export class Arena {
  private readonly blocks: Array<[number, number]> = [];
  private readonly generation = generation;

  /** `len` bytes of the module's memory (0 for `len` 0). */
  alloc(len: number): number {
    if (len === 0) return 0;
    const ptr = call("v4a_wasm_alloc", len) as number;
    if (ptr === 0) {
      throw new V4AError(1, `v4a: ${len} bytes do not fit in the WebAssembly memory`);
    }
    this.blocks.push([ptr, len]);
    return ptr;
  }

  /**
   * Copies an input in and returns `[ptr, len]`. A string with a lone surrogate (which UTF-8
   * cannot encode) is refused with INVALID_UTF8 naming `what` and the UTF-16 index.
   */
  input(value: Input, what: string): [number, number] {
    if (typeof value !== "string") {
      if (!(value instanceof Uint8Array)) {
        throw new TypeError(`v4a: ${what} must be a string or a Uint8Array`);
      }
      const ptr = this.alloc(value.length);
      mem().set(value, ptr);
      return [ptr, value.length];
    }
    const bad = loneSurrogate(value);
    if (bad >= 0) {
      const unit = value.charCodeAt(bad).toString(16).toUpperCase();
      throw new V4AError(
        3,
        `${what} has a lone surrogate (U+${unit}) at UTF-16 index ${bad}: it is not Unicode ` +
          `text and cannot be encoded as UTF-8; nothing was applied`,
        {
          ...noDiagnostics(),
          input: what,
          index: bad,
          byteOffset: encoder.encode(value.slice(0, bad)).length,
        },
      );
    }
    if (value.length === 0) return [0, 0];
    const capacity = value.length * 3;
    const ptr = this.alloc(capacity);
    const { written } = encoder.encodeInto(value, mem().subarray(ptr, ptr + capacity));
    return [ptr, written];
  }

  /** Frees every block. */
  free(): void {
    if (exp === null || this.generation !== generation) return;
    for (const [ptr, len] of this.blocks) exp.v4a_wasm_free!(ptr, len);
    this.blocks.length = 0;
  }
}
