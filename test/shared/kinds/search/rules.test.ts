// The pure search episode: moves and turns, collisions leave the pose unchanged, the pitch clamp,
// the 25-step end, invalid actions (a spent step, or move_forward with the E3VS option), stop.
import { describe, expect, it } from 'vitest';
import { PrimitiveCollider } from '../../../../src/shared/kinds/search/collide';
import { DEFAULT_MOTION, type Pose } from '../../../../src/shared/kinds/search/pose';
import { roomParts } from '../../../../src/shared/kinds/search/room';
import { SearchRules, type SearchConfig } from '../../../../src/shared/kinds/search/rules';
import { emptyRoom } from './rooms';

const collider = new PrimitiveCollider(roomParts(emptyRoom()).map((p) => p.part));
const start: Pose = { x: 2, y: 2, z: 1.2, yaw: 0, pitch: 0 };
const config = (over: Partial<SearchConfig> = {}): SearchConfig => ({
  question: 'What colour is the cube?', choices: [], start, maxSteps: 25, motion: DEFAULT_MOTION, radius: 0.1, defaultForward: false, ...over,
});

describe('SearchRules', () => {
  it('moves 0.25 m along the heading and turns 30 degrees', () => {
    const r = new SearchRules(config(), collider);
    r.step({ tool: 'move_forward' });
    expect(r.currentPose()).toMatchObject({ x: 2.25, y: 2, z: 1.2 });
    r.step({ tool: 'turn_left' });
    r.step({ tool: 'turn_left' });
    r.step({ tool: 'turn_left' });
    expect(r.currentPose().yaw).toBe(90);
    r.step({ tool: 'move_forward' });
    expect(r.currentPose().x).toBeCloseTo(2.25, 9);
    expect(r.currentPose().y).toBeCloseTo(2.25, 9);
    r.step({ tool: 'move_left' }); // facing +Y, left is -X
    expect(r.currentPose().x).toBeCloseTo(2, 9);
    r.step({ tool: 'turn_right' });
    expect(r.currentPose().yaw).toBe(60);
    expect(r.pathLength()).toBeCloseTo(0.75, 9);
  });

  it('clamps the pitch to -60..60 and says nothing changed at the limit', () => {
    const r = new SearchRules(config(), collider);
    const texts = [0, 1, 2].map(() => r.step({ tool: 'look_up' }).body);
    expect(r.currentPose().pitch).toBe(60);
    expect(texts[2]).toMatch(/as far as it goes/);
    for (let i = 0; i < 5; i++) r.step({ tool: 'look_down' });
    expect(r.currentPose().pitch).toBe(-60);
    const narrow = new SearchRules(config({ motion: { ...DEFAULT_MOTION, pitchMin: -30, pitchMax: 30 } }), collider);
    narrow.step({ tool: 'look_up' });
    narrow.step({ tool: 'look_up' });
    expect(narrow.currentPose().pitch).toBe(30);
  });

  it('leaves the pose unchanged on a collision and counts it', () => {
    const r = new SearchRules(config({ start: { ...start, x: 3.7 } }), collider);
    const res = r.step({ tool: 'move_forward' }); // the east wall's face is at x = 4
    expect(res.body).toMatch(/Blocked/);
    expect(res.ok).toBe(true);
    expect(res.changed).toBe(false);
    expect(r.currentPose().x).toBe(3.7);
    expect(r.collisions()).toBe(1);
    expect(r.stepCount).toBe(1);
  });

  it('ends after 25 steps without an answer, and charges nothing after the end', () => {
    const r = new SearchRules(config(), collider);
    let last;
    for (let i = 0; i < 25; i++) last = r.step({ tool: i % 2 ? 'turn_left' : 'turn_right' });
    expect(r.done).toBe(true);
    expect(r.endReason).toBe('auto');
    expect(last?.footer).toBe('[step 25/25 | steps left 0]');
    const after = r.step({ tool: 'move_forward' });
    expect(after.charged).toBe(false);
    expect(r.stepCount).toBe(25);
    expect(r.answer()).toBeNull();
    // No zeros for SplatBench's Gaussians and renders (issue 39): its budgets are its calls left.
    expect(r.budgets()).toEqual({ callsLeft: 0 });
  });

  it('spends a step on an invalid action and leaves the pose; the E3VS option moves forward instead', () => {
    const r = new SearchRules(config(), collider);
    const bad = r.step({ tool: 'fly_away' });
    expect(bad.ok).toBe(false);
    expect(bad.body).toMatch(/unknown action "fly_away"/);
    expect(r.stepCount).toBe(1);
    expect(r.currentPose()).toEqual(start);
    const badArgs = r.step({ tool: 'stop', args: { answer: 3 } });
    expect(badArgs.ok).toBe(false);
    expect(r.done).toBe(false);
    const e3vs = new SearchRules(config({ defaultForward: true }), collider);
    const res = e3vs.step({ tool: 42 });
    // Refused as written (ok false, one step), then taken as move_forward.
    expect(res.ok).toBe(false);
    expect(res.body).toMatch(/taken as move_forward\. Moved forward 0\.25 m\./);
    expect(e3vs.currentPose().x).toBe(2.25);
  });

  it('ends on stop with the answer, as one step', () => {
    const r = new SearchRules(config(), collider);
    r.step({ tool: 'turn_left' });
    const res = r.step({ tool: 'stop', args: { answer: 'red' } });
    expect(res.done).toBe(true);
    expect(res.endReason).toBe('submit');
    expect(r.answer()).toBe('red');
    expect(r.stepCount).toBe(2);
    expect(r.publicState()).toMatchObject({ step: 2, stepsLeft: 23, done: true, answer: 'red' });
  });
});
