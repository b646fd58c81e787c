// Buffer layouts of the GPU ray caster, one per WGSL struct in shaders/raycast.wgsl, and packing
// of PreparedPart records and cameras into them.
// Inputs: PreparedPart[] (intersect.ts) and a Camera. Outputs: ArrayBuffers ready for writeBuffer.
// Invariant: field order and widths equal the WGSL structs Part and RaycastParams.
import { StructArray, structLayout } from '../../gpu/layout';
import type { Camera } from '../../raster/types';
import type { PreparedPart } from '../intersect';
import { AMBIENT, DIFFUSE, LIGHT_DIR, rayFrame } from '../raycast';

/** WGSL `Part` (storage, read): one primitive in its prepared form. */
export const PART = structLayout([
  { name: 'to_local', type: 'f32', count: 9 },
  { name: 'to_world', type: 'f32', count: 9 },
  { name: 'pos', type: 'f32', count: 3 },
  { name: 'size', type: 'f32', count: 3 },
  { name: 'color', type: 'f32', count: 3 },
  { name: 'kind', type: 'u32', count: 1 },
  { name: 'bound2', type: 'f32', count: 1 },
] as const);

/** WGSL `RaycastParams` (uniform): camera, light, image size and part count. */
export const RAYCAST_PARAMS = structLayout(
  [
    { name: 'row0', type: 'f32', count: 4 },
    { name: 'row1', type: 'f32', count: 4 },
    { name: 'row2', type: 'f32', count: 4 },
    { name: 'centre', type: 'f32', count: 4 },
    { name: 'focal', type: 'f32', count: 4 }, // fx, fy, cx, cy
    { name: 'light', type: 'f32', count: 4 }, // direction (xyz), ambient (w)
    { name: 'width', type: 'u32', count: 1 },
    { name: 'height', type: 'u32', count: 1 },
    { name: 'samples', type: 'u32', count: 1 },
    { name: 'count', type: 'u32', count: 1 },
    { name: 'diffuse', type: 'f32', count: 1 },
    { name: 'pad', type: 'f32', count: 3 },
  ] as const,
  4,
);

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
  const out = new StructArray(RAYCAST_PARAMS, 1);
  const frame = rayFrame(camera);
  out.f32.set(frame.rows[0], out.at(0, 'row0'));
  out.f32.set(frame.rows[1], out.at(0, 'row1'));
  out.f32.set(frame.rows[2], out.at(0, 'row2'));
  out.f32.set(frame.centre, out.at(0, 'centre'));
  out.f32.set([camera.fx, camera.fy, camera.cx, camera.cy], out.at(0, 'focal'));
  out.f32.set([LIGHT_DIR[0], LIGHT_DIR[1], LIGHT_DIR[2], AMBIENT], out.at(0, 'light'));
  out.u32[out.at(0, 'width')] = camera.width;
  out.u32[out.at(0, 'height')] = camera.height;
  out.u32[out.at(0, 'samples')] = samples;
  out.u32[out.at(0, 'count')] = count;
  out.f32[out.at(0, 'diffuse')] = DIFFUSE;
  return out.buffer;
}
