// Buffer layouts of the GPU ray caster, one per WGSL struct in shaders/raycast.wgsl (WGSL
// alignment rules, src/shared/gpu/struct.ts), its kernel with named bindings, and packing of
// PreparedPart records and cameras into them.
// Inputs: PreparedPart[] (intersect.ts) and a Camera. Outputs: ArrayBuffers ready for writeBuffer.
// Invariant: names, offsets and sizes equal the WGSL structs Part and RaycastParams, and the
// bindings equal raycast.wgsl's (test/shared/gpu/wgsl-structs.test.ts parses the shader).
import { kernelSpec, read, rw, uniform } from '../../gpu/kernel';
import { StructArray } from '../../gpu/layout';
import { wgslStruct, writeStruct } from '../../gpu/struct';
import type { Camera } from '../../raster/types';
import type { PreparedPart } from '../intersect';
import { AMBIENT, DIFFUSE, LIGHT_DIR, rayFrame } from '../raycast';

/** WGSL `Part` (storage, read): one primitive in its prepared form. */
export const PART = wgslStruct('Part', {
  to_local: 'array<f32, 9>',
  to_world: 'array<f32, 9>',
  pos: 'array<f32, 3>',
  size: 'array<f32, 3>',
  color: 'array<f32, 3>',
  kind: 'u32',
  bound2: 'f32',
});

/** WGSL `RaycastParams` (uniform): camera, light, image size and part count. */
export const RAYCAST_PARAMS = wgslStruct('RaycastParams', {
  row0: 'vec4<f32>',
  row1: 'vec4<f32>',
  row2: 'vec4<f32>',
  centre: 'vec4<f32>',
  focal: 'vec4<f32>', // fx, fy, cx, cy
  light: 'vec4<f32>', // direction (xyz), ambient (w)
  width: 'u32',
  height: 'u32',
  samples: 'u32',
  count: 'u32',
  diffuse: 'f32',
  _pad0: 'f32',
  _pad1: 'f32',
  _pad2: 'f32',
});

/** The ray caster's one entry point and its bindings. */
export const RAYCAST_KERNEL = kernelSpec('raycast.wgsl', 'main', { params: uniform(RAYCAST_PARAMS), parts: read(PART), pixels: rw() });

/** Words per output pixel: r, g, b, coverage. */
export const PIXEL_WORDS = 4;

/** [max(1, N)] Part records; a zero-part object still gets one (unused) record to bind. */
export function packParts(parts: readonly PreparedPart[]): ArrayBuffer {
  const out = new StructArray(PART, parts.length);
  parts.forEach((p, i) => {
    out.f32.set(p.toLocal, out.at(i, 'to_local'));
    out.f32.set(p.toWorld, out.at(i, 'to_world'));
    out.f32.set(p.pos, out.at(i, 'pos'));
    out.f32.set(p.size, out.at(i, 'size'));
    out.f32.set(p.color, out.at(i, 'color'));
    out.u32[out.at(i, 'kind')] = p.kind;
    out.f32[out.at(i, 'bound2')] = p.bound2;
  });
  return out.buffer;
}

export function packParams(camera: Camera, samples: number, count: number): ArrayBuffer {
  const frame = rayFrame(camera);
  return writeStruct(RAYCAST_PARAMS, {
    row0: vec4(frame.rows[0]),
    row1: vec4(frame.rows[1]),
    row2: vec4(frame.rows[2]),
    centre: vec4(frame.centre),
    focal: [camera.fx, camera.fy, camera.cx, camera.cy],
    light: [LIGHT_DIR[0], LIGHT_DIR[1], LIGHT_DIR[2], AMBIENT],
    width: camera.width,
    height: camera.height,
    samples,
    count,
    diffuse: DIFFUSE,
  });
}

/** A 3-vector as a vec4 member; .w is unused by the shader and stays zero. */
function vec4(v: ArrayLike<number>): number[] {
  return [v[0], v[1], v[2], 0];
}
