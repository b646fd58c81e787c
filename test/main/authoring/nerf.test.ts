import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importNerf } from '../../../src/main/authoring/nerf';
import { Grader } from '../../../src/main/grader/grader';
import { testDataDir } from '../../helpers/data';
import { encodePng } from '../../../src/main/io/png';
import { loadTask } from '../../../src/main/tasks/load';
import { partAabb } from '../../../src/shared/authoring/geometry';
import { getObject } from '../../../src/shared/authoring/objects/index';
import { cameraCentre } from '../../../src/shared/camera/orbit';
import { writeNerfFixture } from './nerf-fixture';
import { skipWithout } from '../../helpers/optional';

const root = mkdtempSync(join(tmpdir(), 'splatlab-nerf-'));
const capture = join(root, 'capture');
const SCALE = 0.5; // capture world = task world / SCALE + SHIFT
const SHIFT: [number, number, number] = [1, -2, 0.5];
let grader: Grader;

beforeAll(async () => {
  writeNerfFixture(capture, { object: 'robot', frames: 14, size: 64, worldScale: SCALE, worldShift: SHIFT });
  grader = await Grader.create({ lpipsDir: null });
});
afterAll(() => {
  grader.destroy();
  rmSync(root, { recursive: true, force: true });
});

/** A copy of the good capture, changed by `edit`. */
function variant(name: string, edit: (dir: string) => void): string {
  const dir = join(root, name);
  cpSync(capture, dir, { recursive: true });
  edit(dir);
  return dir;
}

describe('importNerf', () => {
  it('builds the three tasks with the object centred and scaled into the bounds cube', async () => {
    const tasksDir = join(root, 'tasks');
    const res = await importNerf(capture, { id: 'robotcap', steps: 1, tasksDir, grader });
    expect(res.specs.map((s) => s.task_id)).toEqual(['robotcap__sculpt', 'robotcap__reassembly', 'robotcap__oneshot']);
    const task = await loadTask('robotcap__sculpt', { tasksDir });
    expect(task.reference).toHaveLength(8);
    expect(task.heldout).toHaveLength(6);
    expect(task.reference[0].photo.width).toBe(256);
    // Reference views come sorted by azimuth and carry their orbit angles.
    const az = task.reference.map((v) => v.azimuth as number);
    expect([...az].sort((a, b) => a - b)).toEqual(az);
    const source = JSON.parse(readFileSync(join(task.dir, 'source.json'), 'utf8'));
    // The true robot (task world) maps into the capture as p / SCALE + SHIFT; after import it
    // must sit centred in [-0.9, 0.9]^3, up to thin parts that no 64 px frame resolves (the
    // robot's antenna tip pokes ~0.01 above the hull).
    const s = source.normalisation.scale as number;
    const c = source.normalisation.centre as number[];
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (const part of getObject('robot').parts) {
      const b = partAabb(part);
      for (let a = 0; a < 3; a++) {
        lo[a] = Math.min(lo[a], s * (b.min[a] / SCALE + SHIFT[a] - c[a]));
        hi[a] = Math.max(hi[a], s * (b.max[a] / SCALE + SHIFT[a] - c[a]));
      }
    }
    for (let a = 0; a < 3; a++) {
      expect(lo[a]).toBeGreaterThan(-0.93);
      expect(hi[a]).toBeLessThan(0.93);
      expect(Math.abs(lo[a] + hi[a])).toBeLessThan(0.1); // centred
    }
    expect(Math.max(...hi.map((h, a) => h - lo[a]))).toBeGreaterThan(1.6); // and not shrunk away
    // Cameras moved with the world: the distance from the object scales by s / SCALE.
    expect(Math.hypot(...cameraCentre(task.reference[0].camera))).toBeGreaterThan(4.5 * (s / SCALE) * 0.9);
    const re = await loadTask('robotcap__reassembly', { tasksDir });
    expect(new Set(re.init?.map((r) => r.group)).size).toBe(6);
    expect(readdirSync(tasksDir).some((f) => f.startsWith('.staging'))).toBe(false);
  }, 120_000);

  const bad: [string, (dir: string) => void, RegExp][] = [
    ['missing frame', (d) => rmSync(join(d, 'train', 'r_3.png')), /missing 1 of 14 frame images in .* \(r_3\.png\)/],
    ['bad json', (d) => writeFileSync(join(d, 'transforms_train.json'), '{"camera_angle_x": 0.7, "frames": ['), /transforms_train\.json is not valid JSON/],
    ['no frames', (d) => writeFileSync(join(d, 'transforms_train.json'), '{"camera_angle_x": 0.7, "frames": []}'), /frames must not be empty/],
    ['no transforms', (d) => rmSync(join(d, 'transforms_train.json')), /has no transforms_\*\.json/],
    ['no alpha', (d) => writeFileSync(join(d, 'train', 'r_5.png'), encodePng({ width: 64, height: 64, data: new Float32Array(64 * 64 * 3).fill(1) })), /r_5\.png has no alpha channel/],
    ['not square', (d) => writeFileSync(join(d, 'train', 'r_0.png'), encodePng({ width: 64, height: 48, data: new Float32Array(64 * 48 * 4).fill(1) })), /r_0\.png is 64x48; frames must be square/],
    ['corrupt png', (d) => writeFileSync(join(d, 'train', 'r_2.png'), readFileSync(join(d, 'train', 'r_2.png')).subarray(0, 100)), /cannot read .*r_2\.png/],
  ];
  for (const [name, edit, message] of bad) {
    it(`refuses a capture with ${name} in one line and writes nothing`, async () => {
      const dir = variant(name.replace(/ /g, '-'), edit);
      const tasksDir = join(root, `tasks-${name.replace(/ /g, '-')}`);
      const err = await importNerf(dir, { id: 'x', steps: 1, tasksDir, grader }).then(() => null, (e: Error) => e);
      expect(err?.message).toMatch(message);
      expect(err?.message.includes('\n')).toBe(false);
      expect(existsSync(tasksDir) ? readdirSync(tasksDir) : []).toEqual([]);
    });
  }

  it('refuses ids that would clash with built-in objects or task ids', async () => {
    await expect(importNerf(capture, { id: 'snowman', tasksDir: join(root, 't2'), grader })).rejects.toThrow(/built-in procedural object/);
    await expect(importNerf(capture, { id: 'a__b', tasksDir: join(root, 't2'), grader })).rejects.toThrow(/no '__'/);
  });

  const lego = join(testDataDir(), 'nerf-synthetic-lego-24');
  it.skipIf(skipWithout('lego', existsSync(lego)))('imports the 24-frame NeRF-Synthetic lego with a short fit', async () => {
    const tasksDir = join(root, 'tasks-lego');
    const res = await importNerf(lego, { id: 'lego', steps: 2, tasksDir, grader });
    const task = await loadTask('lego__sculpt', { tasksDir });
    expect(task.reference).toHaveLength(8);
    expect(task.heldout).toHaveLength(8);
    // The bulldozer fills a good part of every frame and every mask.
    for (const v of [...task.reference, ...task.heldout]) {
      const cover = v.mask.reduce((s, m) => s + m, 0) / v.mask.length;
      expect(cover).toBeGreaterThan(0.05);
      expect(cover).toBeLessThan(0.8);
    }
    expect(res.anchors.fit.iou).toBeGreaterThan(0.5);
    expect(res.anchors.empty.iou).toBe(0);
  }, 120_000);
});
