// WGSL composition: resolves `#include "name.wgsl"` lines so stages can share one helper file.
// Inputs: a shader name and a ShaderLibrary (file name -> WGSL text), read by the caller (node:fs
// in tests and main, a bundler import in the renderer). Output: one WGSL module as text.
// Invariant: every library file is emitted at most once per composed module, in first-include
// order, before the text that included it; an include line naming a file not in the library throws.
// "constants.wgsl" is generated from src/shared/gpu/constants.ts (one source for TS and WGSL) and
// is served when the library has no file of that name.
import { CONSTANTS_FILE, constantsWgsl } from './constants';

/** WGSL sources by file name, e.g. { 'common.wgsl': '...', 'project_forward.wgsl': '...' }. */
export type ShaderLibrary = Record<string, string>;

const INCLUDE = /^[ \t]*#include[ \t]+"([^"]+)"[ \t]*$/;

export class ShaderIncludeError extends Error {
  constructor(
    readonly missing: string,
    readonly includedFrom: string,
  ) {
    super(`shader '${includedFrom}' includes '${missing}', which is not in the shader library`);
    this.name = 'ShaderIncludeError';
  }
}

/** The WGSL text of `name` with every include resolved once. */
export function composeShader(name: string, library: ShaderLibrary): string {
  if (!(name in library)) throw new Error(`shader '${name}' is not in the shader library`);
  const emitted = new Set<string>();
  const out: string[] = [];
  expand(name, '', library, emitted, out);
  return out.join('\n');
}

function expand(name: string, from: string, library: ShaderLibrary, emitted: Set<string>, out: string[]): void {
  if (emitted.has(name)) return;
  const text = name in library ? library[name] : name === CONSTANTS_FILE ? constantsWgsl() : undefined;
  if (text === undefined) throw new ShaderIncludeError(name, from);
  // Marked before expanding so an include cycle terminates instead of recursing forever.
  emitted.add(name);
  for (const line of text.split('\n')) {
    const m = INCLUDE.exec(line);
    if (m) expand(m[1], name, library, emitted, out);
    else out.push(line);
  }
}
