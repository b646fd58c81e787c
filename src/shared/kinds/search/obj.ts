// A small Wavefront .obj reader for the collision meshes of captured rooms (docs/DESIGN.md
// section 9): vertices (`v x y z`) and faces (`f a b c ...`, with the v/vt/vn forms and negative
// indices), polygons fan-triangulated; everything else (normals, texture coordinates, groups,
// materials) is skipped because collisions need only the surface.
// Input: the file's text. Output: a flat triangle list. Invariant: a bad line is one error
// naming its line number; nothing is guessed (no zero-filled vertices, no dropped faces).
import type { Vec3 } from '../../authoring/primitives';

export interface TriangleMesh {
  /** xyz per vertex. */
  positions: Float64Array;
  /** Three vertex indices per triangle. */
  triangles: Uint32Array;
}

export class ObjError extends Error {}

export function parseObj(text: string): TriangleMesh {
  const pos: number[] = [];
  const tri: number[] = [];
  const lines = text.split(/\r?\n/);
  for (let ln = 0; ln < lines.length; ln++) {
    const line = lines[ln].trim();
    if (!line || line.startsWith('#')) continue;
    const words = line.split(/\s+/);
    if (words[0] === 'v') {
      const xyz = words.slice(1, 4).map(Number);
      if (xyz.length < 3 || xyz.some((v) => !Number.isFinite(v))) throw new ObjError(`obj line ${ln + 1}: a vertex needs three finite numbers ('${line}')`);
      pos.push(xyz[0], xyz[1], xyz[2]);
    } else if (words[0] === 'f') {
      const count = pos.length / 3;
      const idx = words.slice(1).map((w) => {
        const i = Number.parseInt(w.split('/')[0], 10);
        const k = i < 0 ? count + i : i - 1;
        if (!Number.isInteger(i) || i === 0 || k < 0 || k >= count) throw new ObjError(`obj line ${ln + 1}: face index '${w}' names no vertex (${count} so far)`);
        return k;
      });
      if (idx.length < 3) throw new ObjError(`obj line ${ln + 1}: a face needs at least three vertices`);
      for (let j = 1; j + 1 < idx.length; j++) tri.push(idx[0], idx[j], idx[j + 1]);
    }
  }
  if (tri.length === 0) throw new ObjError('obj: no faces');
  return { positions: Float64Array.from(pos), triangles: Uint32Array.from(tri) };
}

/** Writes a mesh as .obj text (generated test rooms, exports). */
export function writeObj(mesh: TriangleMesh): string {
  const out: string[] = ['# splatlab collision mesh'];
  for (let i = 0; i < mesh.positions.length; i += 3) out.push(`v ${mesh.positions[i]} ${mesh.positions[i + 1]} ${mesh.positions[i + 2]}`);
  for (let t = 0; t < mesh.triangles.length; t += 3) out.push(`f ${mesh.triangles[t] + 1} ${mesh.triangles[t + 1] + 1} ${mesh.triangles[t + 2] + 1}`);
  return `${out.join('\n')}\n`;
}

/** The 12 triangles of an axis-aligned box (generated meshes: walls, furniture). */
export function boxMesh(lo: Vec3, hi: Vec3): TriangleMesh {
  const positions: number[] = [];
  for (let k = 0; k < 8; k++) positions.push(k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]);
  const quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  const triangles = quads.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]);
  return { positions: Float64Array.from(positions), triangles: Uint32Array.from(triangles) };
}

/** Several meshes as one. */
export function mergeMeshes(meshes: readonly TriangleMesh[]): TriangleMesh {
  const pos: number[] = [];
  const tri: number[] = [];
  for (const m of meshes) {
    const base = pos.length / 3;
    pos.push(...m.positions);
    for (const i of m.triangles) tri.push(base + i);
  }
  return { positions: Float64Array.from(pos), triangles: Uint32Array.from(tri) };
}
