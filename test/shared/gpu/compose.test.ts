// composeShader: include resolution, once-only emission, missing-include and cycle handling,
// and that every real shader in shaders/ composes.
import { describe, expect, it } from 'vitest';
import { ShaderIncludeError, composeShader } from '../../../src/shared/gpu/compose';
import { loadShaderLibrary } from '../../helpers/shaders';

describe('composeShader', () => {
  it('replaces an include line by the included file, before the including text', () => {
    const lib = { 'a.wgsl': '#include "b.wgsl"\nfn a() {}', 'b.wgsl': 'fn b() {}' };
    expect(composeShader('a.wgsl', lib)).toBe('fn b() {}\nfn a() {}');
  });

  it('emits a file included twice (directly and transitively) only once', () => {
    const lib = {
      'main.wgsl': '#include "common.wgsl"\n#include "mid.wgsl"\n  #include "common.wgsl"\nfn main() {}',
      'mid.wgsl': '#include "common.wgsl"\nfn mid() {}',
      'common.wgsl': 'const X: u32 = 1u;',
    };
    const out = composeShader('main.wgsl', lib);
    expect(out.match(/const X/g)).toHaveLength(1);
    expect(out).toBe('const X: u32 = 1u;\nfn mid() {}\nfn main() {}');
  });

  it('throws a ShaderIncludeError naming the missing file and its includer', () => {
    const lib = { 'a.wgsl': '#include "nope.wgsl"' };
    expect(() => composeShader('a.wgsl', lib)).toThrow(ShaderIncludeError);
    expect(() => composeShader('a.wgsl', lib)).toThrow(/'a.wgsl' includes 'nope.wgsl'/);
    expect(() => composeShader('missing.wgsl', lib)).toThrow(/not in the shader library/);
  });

  it('terminates on an include cycle', () => {
    const lib = { 'a.wgsl': '#include "b.wgsl"\nfn a() {}', 'b.wgsl': '#include "a.wgsl"\nfn b() {}' };
    expect(composeShader('a.wgsl', lib)).toBe('fn b() {}\nfn a() {}');
  });

  it('leaves lines that only mention #include inside text alone', () => {
    const lib = { 'a.wgsl': '// see #include "b.wgsl" below\nfn a() {}' };
    expect(composeShader('a.wgsl', lib)).toBe(lib['a.wgsl']);
  });

  it('composes every shader of the rasterizer with common.wgsl exactly once', () => {
    const lib = loadShaderLibrary();
    const stages = ['project_forward.wgsl', 'depth_sort.wgsl', 'tile_bin.wgsl', 'rasterize_forward.wgsl', 'rasterize_backward.wgsl', 'project_backward.wgsl'];
    for (const s of stages) {
      const out = composeShader(s, lib);
      expect(out).not.toMatch(/#include/);
      expect(out.match(/struct ViewParams/g)).toHaveLength(1);
    }
  });
});
