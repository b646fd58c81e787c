// Test helper: the ShaderLibrary of every *.wgsl file in shaders/ at the repository root.
// Read once with node:fs (main and tests do this; the renderer imports the files through its bundler).
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ShaderLibrary } from '../../src/shared/gpu/compose';

const SHADER_DIR = fileURLToPath(new URL('../../shaders/', import.meta.url));
let cached: ShaderLibrary | undefined;

export function loadShaderLibrary(): ShaderLibrary {
  if (!cached) {
    const library: ShaderLibrary = {};
    for (const file of readdirSync(SHADER_DIR).sort()) {
      if (file.endsWith('.wgsl')) library[file] = readFileSync(SHADER_DIR + file, 'utf8');
    }
    cached = library;
  }
  return cached;
}
