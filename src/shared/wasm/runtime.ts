// The slice of the WebAssembly JS API the LPIPS, SSIM and compositing kernels use, typed locally: shared code is
// compiled both with the DOM lib (full WebAssembly types) and with Node's lib only (where the
// namespace is incomplete), and the global exists at runtime in both. Input: module bytes.
// Output: the instance's exports. Invariant: no imports are ever passed (the modules import nothing).

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

interface WasmApi {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

function api(): WasmApi {
  const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) throw new Error('WebAssembly is not available in this runtime');
  return wasm;
}

/** Compiles and instantiates module bytes; resolves to the exports. */
export async function instantiateWasm(bytes: Uint8Array): Promise<Record<string, unknown>> {
  return (await api().instantiate(bytes, {})).instance.exports;
}

/**
 * Compiles and instantiates module bytes on this thread, synchronously (small modules only: a
 * browser's main thread refuses large synchronous compiles; Node and workers allow them).
 */
export function instantiateWasmSync(bytes: Uint8Array): Record<string, unknown> {
  const wasm = api();
  return new wasm.Instance(new wasm.Module(bytes), {}).exports;
}

/** WebAssembly.validate: true when the engine accepts the bytes as a module. */
export function validateWasm(bytes: Uint8Array): boolean {
  return api().validate(bytes);
}
