// Test helper: the ShaderLibrary of every *.wgsl file in shaders/, read the way main reads it.
import { loadShaders } from '../../src/main/gpu/shaders';
import type { ShaderLibrary } from '../../src/shared/gpu/compose';

export function loadShaderLibrary(): ShaderLibrary {
  return loadShaders();
}
