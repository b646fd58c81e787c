// three.js meshes of procedural parts: unit geometries (sphere radius 1, box side 1, cylinder and
// cone radius 1 and height 1 along local Z, the cone's tip at +Z) scaled by the part's extents,
// flat-shaded in the part's colour, rotated with R = Rz * Ry * Rx (three's Euler order 'ZYX').
// Inputs: AuthorPart values. Outputs: Mesh objects whose userData.index is the part's index.
// Invariant: geometry is shared across meshes; each mesh owns its material (disposed with it).
import { BoxGeometry, ConeGeometry, CylinderGeometry, Mesh, MeshStandardMaterial, SphereGeometry, type BufferGeometry } from 'three';
import type { AuthorPart } from '../../shared/api/author';
import type { Vec3 } from '../../shared/authoring/primitives';
import { partDims } from './parts';

const DEG = Math.PI / 180;

function alongZ<T extends BufferGeometry>(g: T): T {
  // three's cylinder and cone stand along +Y; the parts stand along local +Z.
  g.rotateX(Math.PI / 2);
  return g;
}

const GEOMETRY: Record<AuthorPart['kind'], BufferGeometry> = {
  sphere: new SphereGeometry(1, 28, 18),
  box: new BoxGeometry(1, 1, 1),
  cylinder: alongZ(new CylinderGeometry(1, 1, 1, 32)),
  cone: alongZ(new ConeGeometry(1, 1, 32)),
};

/** Mesh scale of a part: its extents in the unit geometry's terms. */
function meshScale(p: AuthorPart): Vec3 {
  const d = partDims(p);
  return p.kind === 'sphere' ? [d[0] / 2, d[1] / 2, d[2] / 2] : p.kind === 'box' ? d : [d[0] / 2, d[1] / 2, d[2]];
}

/** Full extents of a part from a mesh scale (the inverse of meshScale). */
export function dimsFromScale(kind: AuthorPart['kind'], s: Vec3): Vec3 {
  return kind === 'sphere' ? [2 * s[0], 2 * s[1], 2 * s[2]] : kind === 'box' ? s : [2 * s[0], 2 * s[1], s[2]];
}

export function partMesh(p: AuthorPart, index: number, selected: boolean): Mesh {
  const material = new MeshStandardMaterial({ flatShading: true, roughness: 0.85, metalness: 0 });
  if (typeof p.color === 'string') material.color.set(p.color);
  else material.color.setRGB(p.color[0], p.color[1], p.color[2]);
  if (selected) material.emissive.setRGB(0.28, 0.22, 0.05);
  const mesh = new Mesh(GEOMETRY[p.kind], material);
  placeMesh(mesh, p);
  mesh.userData.index = index;
  mesh.name = `part-${index}`;
  return mesh;
}

export function placeMesh(mesh: Mesh, p: AuthorPart): void {
  mesh.position.set(p.pos[0], p.pos[1], p.pos[2]);
  mesh.rotation.order = 'ZYX';
  const r = p.rot ?? [0, 0, 0];
  mesh.rotation.set(r[0] * DEG, r[1] * DEG, r[2] * DEG);
  const s = meshScale(p);
  mesh.scale.set(s[0], s[1], s[2]);
  mesh.updateMatrix();
}

/** pos, rot (degrees, XYZ with R = Rz Ry Rx) and full extents of a mesh after a gizmo drag. */
export function poseOfMesh(mesh: Mesh, kind: AuthorPart['kind']): { pos: Vec3; rot: Vec3; dims: Vec3 } {
  const round = (v: number, d = 4): number => Math.round(v * 10 ** d) / 10 ** d;
  mesh.rotation.order = 'ZYX';
  mesh.rotation.setFromQuaternion(mesh.quaternion, 'ZYX');
  const rot = [mesh.rotation.x, mesh.rotation.y, mesh.rotation.z].map((a) => round(a / DEG, 2) + 0) as Vec3;
  const s: Vec3 = [Math.abs(mesh.scale.x), Math.abs(mesh.scale.y), Math.abs(mesh.scale.z)];
  return { pos: [mesh.position.x, mesh.position.y, mesh.position.z].map((v) => round(v)) as Vec3, rot, dims: dimsFromScale(kind, s) };
}

export function disposeMesh(mesh: Mesh): void {
  (mesh.material as MeshStandardMaterial).dispose();
}
