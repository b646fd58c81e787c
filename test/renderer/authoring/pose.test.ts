// A gizmo drag read back into a part (issue #14 item 4): the inspector must show exactly what the
// part holds, so a move keeps the typed angles, a turn about one axis changes only what it must,
// and a cylinder stretched along one radial axis takes that radius rather than an average.
import { describe, expect, it } from 'vitest';
import { Euler, Quaternion, Vector3 } from 'three';
import type { AuthorPart } from '../../../src/shared/api/author';
import type { Vec3 } from '../../../src/shared/authoring/primitives';
import { dimsNear, eulerNear, partMesh, poseOfMesh } from '../../../src/renderer/authoring/meshes';

const DEG = Math.PI / 180;
const quat = (r: Vec3): Quaternion => new Quaternion().setFromEuler(new Euler(r[0] * DEG, r[1] * DEG, r[2] * DEG, 'ZYX'));

describe('eulerNear', () => {
  it('gives back the typed angles when the rotation did not change', () => {
    for (const r of [[0, 120, 0], [170, -95, 33], [400, 0, -720]] as Vec3[]) expect(eulerNear(quat(r), r)).toEqual(r);
  });

  it('a turn about Z changes only Z, even past the gimbal range of the plain decomposition', () => {
    const prev: Vec3 = [0, 120, 0];
    const turned = new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), 10 * DEG).multiply(quat(prev));
    expect(eulerNear(turned, prev)).toEqual([0, 120, 10]);
  });

  it('always returns a triple of the same rotation', () => {
    const prev: Vec3 = [30, 100, -50];
    const q = new Quaternion().setFromAxisAngle(new Vector3(1, 2, 3).normalize(), 0.7).multiply(quat(prev));
    const r = eulerNear(q, prev);
    expect(Math.abs(quat(r).dot(q))).toBeGreaterThan(1 - 1e-8);
  });
});

describe('dimsNear', () => {
  it('a cylinder stretched along x takes the new radius for both radial axes', () => {
    expect(dimsNear('cylinder', [0.6, 0.3, 0.4], [0.3, 0.3, 0.4])).toEqual([0.6, 0.6, 0.4]);
    expect(dimsNear('cone', [0.3, 0.9, 0.4], [0.3, 0.3, 0.4])).toEqual([0.9, 0.9, 0.4]);
  });

  it('keeps extents the drag did not change exactly, and boxes per axis', () => {
    expect(dimsNear('box', [0.2 + 1e-9, 0.5, 0.3], [0.2, 0.25, 0.3])).toEqual([0.2, 0.5, 0.3]);
  });
});

describe('poseOfMesh', () => {
  it('a pure move keeps rotation and extents as typed', () => {
    const part: AuthorPart = { kind: 'cylinder', pos: [0.1, 0.2, 0.3], rot: [0, 120, 0], size: { radius: 0.15, height: 0.4 }, color: '#ff0000' };
    const mesh = partMesh(part, 0, false);
    mesh.position.x += 0.25;
    const pose = poseOfMesh(mesh, part);
    expect(pose.rot).toEqual([0, 120, 0]);
    expect(pose.dims).toEqual([0.3, 0.3, 0.4]);
    expect(pose.pos).toEqual([0.35, 0.2, 0.3]);
  });
});
