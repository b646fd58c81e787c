// Host layouts against the shaders: parses every struct and @binding declaration in shaders/
// (composed, so includes and the generated constants.wgsl count) and checks each kernel spec of
// the rasterizer, metrics, LPIPS and ray caster against them: binding names, order and access,
// struct field names, byte offsets and sizes (computed here independently with WGSL's alignment
// rules), and that every compute entry point in shaders/ has a spec. Also checks the shared
// constants are declared only in src/shared/gpu/constants.ts.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { composeShader } from '../../../src/shared/gpu/compose';
import { SHADER_CONSTANTS, TILE_SIZE } from '../../../src/shared/gpu/constants';
import type { KernelSpec } from '../../../src/shared/gpu/kernel';
import { RASTER_KERNELS } from '../../../src/shared/raster/gpu/layouts';
import { METRIC_KERNELS } from '../../../src/shared/metrics/gpu/kernels';
import { RAYCAST_KERNEL } from '../../../src/shared/authoring/gpu/layout';
import { TILE_SIZE as DEBUG_TILE_SIZE } from '../../../src/shared/debug/tiles';
import { loadShaderLibrary } from '../../helpers/shaders';

const library = loadShaderLibrary();
const specs: KernelSpec[] = [...Object.values<KernelSpec>(RASTER_KERNELS), ...Object.values<KernelSpec>(METRIC_KERNELS), RAYCAST_KERNEL];

interface Member {
  name: string;
  type: string;
}

function stripComments(wgsl: string): string {
  return wgsl.replace(/\/\/[^\n]*/g, '');
}

/** Splits on commas outside <...>. */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '<') depth++;
    if (ch === '>') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

function parseStructs(wgsl: string): Map<string, Member[]> {
  const structs = new Map<string, Member[]>();
  for (const m of stripComments(wgsl).matchAll(/struct\s+(\w+)\s*\{([^}]*)\}/g)) {
    structs.set(
      m[1],
      splitTop(m[2]).map((decl) => {
        const i = decl.indexOf(':');
        return { name: decl.slice(0, i).trim(), type: decl.slice(i + 1).replace(/\s+/g, ' ').trim() };
      }),
    );
  }
  return structs;
}

interface Binding {
  group: number;
  binding: number;
  space: string;
  name: string;
  type: string;
}

function parseBindings(wgsl: string): Binding[] {
  const out: Binding[] = [];
  for (const m of stripComments(wgsl).matchAll(/@group\((\d+)\)\s*@binding\((\d+)\)\s*var(?:<([^>]*)>)?\s+(\w+)\s*:\s*([^;]+);/g)) {
    out.push({ group: Number(m[1]), binding: Number(m[2]), space: (m[3] ?? '').replace(/\s+/g, ''), name: m[4], type: m[5].replace(/\s+/g, '') });
  }
  return out.sort((a, b) => a.binding - b.binding);
}

function kindOf(space: string): string {
  if (space === 'uniform') return 'uniform';
  if (space === 'storage' || space === 'storage,read') return 'read';
  if (space === 'storage,read_write') return 'rw';
  return `unknown(${space})`;
}

// WGSL memory layout (spec, "Alignment and Size"), written out here independently of struct.ts.
function alignSize(type: string): { align: number; size: number } {
  const t = type.replace(/\s+/g, '');
  if (['f32', 'u32', 'i32', 'atomic<u32>', 'atomic<i32>'].includes(t)) return { align: 4, size: 4 };
  const vec = /^vec(\d)<(f32|u32|i32)>$/.exec(t);
  if (vec) return { 2: { align: 8, size: 8 }, 3: { align: 16, size: 12 }, 4: { align: 16, size: 16 } }[Number(vec[1]) as 2 | 3 | 4];
  const arr = /^array<(.+),(\d+)>$/.exec(t);
  if (arr) {
    const e = alignSize(arr[1]);
    return { align: e.align, size: Number(arr[2]) * Math.ceil(e.size / e.align) * e.align };
  }
  throw new Error(`test parser: unsupported member type ${type}`);
}

function wgslLayout(members: Member[]): { fields: { name: string; offset: number; size: number }[]; size: number } {
  let end = 0;
  let align = 1;
  const fields = members.map((m) => {
    const a = alignSize(m.type);
    const offset = Math.ceil(end / a.align) * a.align;
    end = offset + a.size;
    align = Math.max(align, a.align);
    return { name: m.name, offset, size: a.size };
  });
  return { fields, size: Math.ceil(end / align) * align };
}

/** The struct a binding's type names: T for `T` or `array<T>`, null for scalars and vectors. */
function structOf(type: string, structs: Map<string, Member[]>): string | null {
  const inner = /^array<(\w+)>$/.exec(type)?.[1] ?? type;
  return structs.has(inner) ? inner : null;
}

describe('kernel specs match the WGSL declarations', () => {
  for (const spec of specs) {
    it(`${spec.file}:${spec.entry}`, () => {
      const code = composeShader(spec.file, library);
      expect(code).toMatch(new RegExp(`@compute[^;{]*fn\\s+${spec.entry}\\s*\\(`));
      const structs = parseStructs(code);
      const bindings = parseBindings(code);
      const names = Object.keys(spec.bindings);
      expect(bindings.map((b) => b.group)).toEqual(names.map(() => 0));
      expect(bindings.map((b) => b.binding)).toEqual(names.map((_, i) => i));
      expect(bindings.map((b) => b.name)).toEqual(names);
      for (const b of bindings) {
        const hostSpec = spec.bindings[b.name];
        expect(kindOf(b.space), `${b.name} access`).toBe(hostSpec.kind);
        const wgslStructName = structOf(b.type, structs);
        // Every struct-typed binding has a host layout (no struct travels as raw words).
        expect(hostSpec.struct === undefined, `${b.name}: ${b.type} needs a host layout`).toBe(wgslStructName === null);
        if (!hostSpec.struct || !wgslStructName) continue;
        // The host layout is of the same struct, or of its atomic twin (ControlAtomic for Control).
        expect([hostSpec.struct.name, `${hostSpec.struct.name}Atomic`]).toContain(wgslStructName);
        const wgsl = wgslLayout(structs.get(wgslStructName) ?? []);
        const host = hostSpec.struct.fields.map((f) => ({ name: f.name, offset: f.byteOffset, size: f.byteSize }));
        expect(host, `${wgslStructName} fields`).toEqual(wgsl.fields);
        expect(hostSpec.struct.bytes, `${wgslStructName} size`).toBe(wgsl.size);
      }
    });
  }

  it('covers every compute entry point in shaders/', () => {
    const declared = new Set(specs.map((s) => `${s.file}:${s.entry}`));
    const found: string[] = [];
    for (const file of readdirSync(new URL('../../../shaders/', import.meta.url)).filter((f) => f.endsWith('.wgsl'))) {
      for (const m of stripComments(library[file]).matchAll(/@compute[^{;]*?fn\s+(\w+)\s*\(/g)) found.push(`${file}:${m[1]}`);
    }
    // Included helper files (lpips_conv_common.wgsl) have no entry point of their own.
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((f) => !declared.has(f))).toEqual([]);
    expect([...declared].filter((d) => !found.includes(d))).toEqual([]);
  });
});

describe('shared constants', () => {
  it('are declared by no shader file, only generated from constants.ts', () => {
    for (const [file, text] of Object.entries(library)) {
      for (const name of Object.keys(SHADER_CONSTANTS)) {
        expect(stripComments(text), `${file} declares ${name}`).not.toMatch(new RegExp(`const\\s+${name}\\b`));
      }
    }
  });

  it('reach every composed shader that uses them with the TS value', () => {
    for (const spec of specs) {
      const code = stripComments(composeShader(spec.file, library));
      for (const [name, value] of Object.entries(SHADER_CONSTANTS)) {
        const uses = new RegExp(`\\b${name}\\b`).test(code.replace(new RegExp(`const\\s+${name}\\b[^;]*;`), ''));
        if (uses) expect(code).toContain(`const ${name}: u32 = ${value}u;`);
      }
    }
  });

  it('give the debugger the rasterizer tile size', () => {
    expect(DEBUG_TILE_SIZE).toBe(TILE_SIZE);
  });
});
