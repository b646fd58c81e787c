// A* over the motion lattice: as short as the BFS where the BFS finishes, and it reaches starts
// far beyond the BFS's state cap (many actions, headings off the axes); pathNear reaches a
// marked viewpoint off the start's lattice within the pose tolerance.
import { describe, expect, it } from 'vitest';
import { actionsBound, pathNear, pathTo } from '../../../../src/shared/kinds/search/astar';
import { samePose } from '../../../../src/shared/kinds/search/answerability';
import { PrimitiveCollider } from '../../../../src/shared/kinds/search/collide';
import { applyMotion, DEFAULT_MOTION, poseKey, type MotionAction, type Pose } from '../../../../src/shared/kinds/search/pose';
import { roomParts } from '../../../../src/shared/kinds/search/room';
import { motionWorld, searchAnswerable } from '../../../../src/shared/kinds/search/world';
import { emptyRoom } from './rooms';

const w = motionWorld(new PrimitiveCollider(roomParts(emptyRoom([])).map((p) => p.part)));
const walk = (p: Pose, acts: MotionAction[]) => acts.reduce((q, a) => applyMotion(q, a, DEFAULT_MOTION), p);

describe('A* on the motion lattice', () => {
  const start: Pose = { x: 1, y: 1, z: 1, yaw: 30, pitch: 0 };

  it('finds the BFS length where the BFS finishes', () => {
    const goal = walk(start, ['move_forward', 'turn_left', 'move_forward', 'move_up', 'look_down']);
    const bfs = searchAnswerable(w, start, (p) => poseKey(p) === poseKey(goal), { maxDepth: 8 });
    const path = pathTo(w, start, goal, { maxDepth: 24 })!;
    expect(path.length).toBe(bfs!.path.length);
    expect(poseKey(walk(start, path))).toBe(poseKey(goal));
    expect(actionsBound(w, start, goal)).toBeLessThanOrEqual(path.length);
  });

  it('reaches a start far beyond the BFS state cap', () => {
    const acts: MotionAction[] = ['turn_left', ...Array<MotionAction>(6).fill('move_forward'), 'turn_right', 'turn_right', ...Array<MotionAction>(5).fill('move_forward'), 'move_up', 'look_up'];
    const goal = walk(start, acts);
    expect(searchAnswerable(w, start, (p) => poseKey(p) === poseKey(goal), { maxDepth: 24, maxStates: 50_000 })).toBeNull();
    const path = pathTo(w, start, goal, { maxDepth: 24 })!;
    expect(path.length).toBeLessThanOrEqual(acts.length);
    expect(poseKey(walk(start, path))).toBe(poseKey(goal));
  });

  it('pathNear stops within the tolerance of a marked pose off the lattice', () => {
    const marked: Pose = { x: 2.03, y: 1.52, z: 1.04, yaw: 95, pitch: -7 };
    const tol = { position: 0.125, angle: 15 };
    const found = pathNear(w, start, [marked], tol, { maxDepth: 24 })!;
    expect(samePose(found.goal, marked, tol)).toBe(true);
    expect(poseKey(walk(start, found.path))).toBe(poseKey(found.goal));
    const bfs = searchAnswerable(w, start, (p) => samePose(p, marked, tol), { maxDepth: 12 });
    expect(found.path.length).toBe(bfs!.path.length);
  });
});
