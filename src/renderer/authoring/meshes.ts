// three.js meshes of procedural parts: unit geometries (sphere radius 1, box side 1, cylinder and
// cone radius 1 and height 1 along local Z, the cone's tip at +Z) scaled by the part's extents,
// flat-shaded in the part's colour, rotated with R = Rz * Ry * Rx (three's Euler order 'ZYX').
// Inputs: AuthorPart values. Outputs: Mesh objects whose userData.index is the part's index.
// Invariant: geometry is shared across meshes; each mesh owns its material (disposed with it).
import { BoxGeometry, ConeGeometry, CylinderGeometry, Euler, Mesh, MeshStandardMaterial, Quaternion, SphereGeometry, type BufferGeometry } from 'three';
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

/**
 * Euler angles (degrees, R = Rz Ry Rx) of a rotation, written as close to `prev` as the rotation
 * allows: the unchanged rotation gives `prev` back exactly, and otherwise of the two equivalent
 * triples (x, y, z) and (x + 180, 180 - y, z + 180), each angle wrapped by whole turns towards
 * prev's, the nearer one. A drag that only moves or turns about one axis so leaves the other
 * angles as the author typed them (issue #14: the inspector showed rewritten angles).
 */
export function eulerNear(q: Quaternion, prev: Readonly<Vec3>): Vec3 {
  const before = new Quaternion().setFromEuler(new Euler(prev[0] * DEG, prev[1] * DEG, prev[2] * DEG, 'ZYX'));
  if (Math.abs(before.dot(q)) > 1 - 1e-10) return [prev[0], prev[1], prev[2]];
  const e = new Euler().setFromQuaternion(q, 'ZYX');
  const a: Vec3 = [e.x / DEG, e.y / DEG, e.z / DEG];
  const b: Vec3 = [a[0] + 180, 180 - a[1], a[2] + 180];
  const near = (t: Vec3): Vec3 => t.map((v, k) => v + 360 * Math.round((prev[k] - v) / 360)) as Vec3;
  const dist = (t: Vec3): number => t.reduce((sum, v, k) => sum + Math.abs(v - prev[k]), 0);
  const [na, nb] = [near(a), near(b)];
  return (dist(na) <= dist(nb) ? na : nb).map((v) => Math.round(v * 100) / 100 + 0) as Vec3;
}

/**
 * Full extents after a drag, as the part's kind can hold them: an extent the drag did not change
 * is kept exactly, and a cylinder or cone (one radius) takes the radial extent the drag changed
 * most for both radial axes instead of an average (issue #14: a radius silently averaged).
 */
export function dimsNear(kind: AuthorPart['kind'], scaled: Readonly<Vec3>, prev: Readonly<Vec3>): Vec3 {
  const same = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  const d = scaled.map((v, k) => (same(v, prev[k]) ? prev[k] : v)) as Vec3;
  if ((kind === 'cylinder' || kind === 'cone') && d[0] !== d[1]) {
    const radial = Math.abs(d[0] - prev[0]) >= Math.abs(d[1] - prev[1]) ? d[0] : d[1];
    d[0] = radial;
    d[1] = radial;
  }
  return d;
}

/** pos, rot (degrees, XYZ with R = Rz Ry Rx) and full extents of a mesh after a gizmo drag of part `prev`. */
export function poseOfMesh(mesh: Mesh, prev: AuthorPart): { pos: Vec3; rot: Vec3; dims: Vec3 } {
  const round = (v: number, d = 4): number => Math.round(v * 10 ** d) / 10 ** d;
  const rot = eulerNear(mesh.quaternion, prev.rot ?? [0, 0, 0]);
  const s: Vec3 = [Math.abs(mesh.scale.x), Math.abs(mesh.scale.y), Math.abs(mesh.scale.z)];
  const pos = [mesh.position.x, mesh.position.y, mesh.position.z].map((v, k) => (Math.abs(v - prev.pos[k]) <= 1e-9 ? prev.pos[k] : round(v))) as Vec3;
  return { pos, rot, dims: dimsNear(prev.kind, dimsFromScale(prev.kind, s), partDims(prev)) };
}

export function disposeMesh(mesh: Mesh): void {
  (mesh.material as MeshStandardMaterial).dispose();
}
