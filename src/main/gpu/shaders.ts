// Reads the WGSL shader library (every *.wgsl in shaders/ at the repo root) for the main
// process's GPU code. Output: ShaderLibrary (file name -> text). Invariant: read once per process
// and folder; the repo root is found from this module's location, as for tasks and data.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShaderLibrary } from '../../shared/gpu/compose';
import { repoRoot } from '../io/data-dir';

const cache = new Map<string, ShaderLibrary>();

export function loadShaders(dir = join(repoRoot(), 'shaders')): ShaderLibrary {
  let library = cache.get(dir);
  if (!library) {
    library = {};
    for (const file of readdirSync(dir).sort()) {
      if (file.endsWith('.wgsl')) library[file] = readFileSync(join(dir, file), 'utf8');
    }
    cache.set(dir, library);
  }
  return library;
}
