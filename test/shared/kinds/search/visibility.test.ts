// The visibility rule on hand-made cases: a cube in front of the camera answers; turned away,
// too far, hidden behind a box, half out of the frame or seen too small it does not.
import { describe, expect, it } from 'vitest';
import { poseCamera, type Pose } from '../../../../src/shared/kinds/search/pose';
import { RoomVisibility } from '../../../../src/shared/kinds/search/visibility';
import { box, emptyRoom, target } from './rooms';

const cube = target('cube-1', [3, 2, 1], 0.2);
const eye: Pose = { x: 2, y: 2, z: 1, yaw: 0, pitch: 0 };

describe('visibility rule', () => {
  const vis = new RoomVisibility(emptyRoom([cube]));

  it('answers when the cube is in front, large enough and unoccluded', () => {
    const m = vis.measure(eye, 'cube-1');
    expect(m.inFrame).toBe(1);
    expect(m.visible).toBe(1);
    // 0.2 m at 0.9 m (front face) with f = 256 px: about 57 px of 512, over 1/10 of the image.
    expect(m.boxFraction).toBeGreaterThan(0.1);
    expect(m.ok).toBe(true);
    expect(vis.answerable(eye, ['cube-1'])).toBe(true);
  });

  it('does not answer facing away, or with the cube only partly in the frame', () => {
    expect(vis.answerable({ ...eye, yaw: 180 }, ['cube-1'])).toBe(false);
    expect(vis.measure({ ...eye, yaw: 180 }, 'cube-1').inFrame).toBe(0);
    // At 45 degrees the cube's centre sits on the frame's edge: about half of it is outside.
    const edge = vis.measure({ ...eye, yaw: 45 }, 'cube-1');
    expect(edge.inFrame).toBeGreaterThan(0.2);
    expect(edge.inFrame).toBeLessThan(0.9);
    expect(edge.ok).toBe(false);
  });

  it('does not answer when the cube is too small in the image', () => {
    const small = new RoomVisibility(emptyRoom([target('cube-1', [3.8, 2, 1], 0.05)]));
    const far: Pose = { ...eye, x: 0.3 };
    const m = small.measure(far, 'cube-1');
    expect(m.inFrame).toBe(1);
    expect(m.boxFraction).toBeLessThan(0.1);
    expect(m.ok).toBe(false);
  });

  it('does not answer when a box hides the cube, and answers again from above it', () => {
    const wall = { id: 'screen', role: 'furniture' as const, category: 'screen', color: 'grey', parts: [box([2.5, 2, 0.75], [0.05, 1, 1.5])] };
    const hidden = new RoomVisibility(emptyRoom([cube, wall]));
    const m = hidden.measure(eye, 'cube-1');
    expect(m.inFrame).toBe(1);
    expect(m.visible).toBe(0);
    expect(m.ok).toBe(false);
    const above: Pose = { x: 2.2, y: 2, z: 2.2, yaw: 0, pitch: -30 };
    expect(hidden.answerable(above, ['cube-1'])).toBe(true);
  });

  it('needs every object of the question', () => {
    const two = new RoomVisibility(emptyRoom([cube, target('cube-2', [1, 2, 1], 0.2, 'blue')]));
    expect(two.answerable(eye, ['cube-1'])).toBe(true);
    expect(two.answerable(eye, ['cube-1', 'cube-2'])).toBe(false);
  });
});

describe('pose camera', () => {
  it('looks along the heading with +x right and +y down in the image', () => {
    const cam = poseCamera(eye);
    const project = (p: [number, number, number]) => {
      const m = cam.world_to_camera;
      const z = m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
      return [cam.fx * (m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3]) / z + cam.cx, cam.fy * (m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7]) / z + cam.cy, z];
    };
    expect(project([3, 2, 1])).toEqual([256, 256, 1]);
    const right = project([3, 1.5, 1]); // heading +X: right is -Y
    expect(right[0]).toBeGreaterThan(256);
    const up = project([3, 2, 1.5]);
    expect(up[1]).toBeLessThan(256);
    // 90 degrees horizontal FOV: a point at 45 degrees lands on the image edge.
    expect(project([3, 1, 1])[0]).toBeCloseTo(512, 9);
  });
});
