// Objects as documents and generated scenes (issue #14): an authored object in the task set is
// rebuilt by name from its object.json and keeps its history; a refit (photos kept) recomputes
// the anchors; an unknown name fails in the user's words; the scene generator is seeded, keeps
// every object on the ground without overlaps, and a generated task with custom budgets passes
// the conformance check. Short fits, one supersample: seconds, not minutes.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildObject } from '../../../src/main/authoring/build';
import { listObjectDocuments, openObject } from '../../../src/main/authoring/documents';
import { generateBatch } from '../../../src/main/authoring/generate';
import { rebuildObject } from '../../../src/main/authoring/rebuild';
import { checkTask } from '../../../src/main/env/conformance';
import { Grader } from '../../../src/main/grader/grader';
import { readSpec } from '../../../src/main/tasks/load';
import { PROCEDURAL_OBJECTS } from '../../../src/shared/authoring/objects/index';
import { partAabb } from '../../../src/shared/authoring/geometry';
import { generateScene, GROUND_Z } from '../../../src/shared/authoring/scene-gen';
import type { ProceduralObject } from '../../../src/shared/authoring/primitives';

const lamp: ProceduralObject = {
  name: 'lamp',
  parts: [
    { kind: 'box', pos: [0, 0, -0.55], size: [0.5, 0.5, 0.15], color: '#3a5f8b' },
    { kind: 'cylinder', pos: [0, 0, 0], size: { radius: 0.05, height: 0.9 }, color: '#888888' },
    { kind: 'cone', pos: [0, 0, 0.5], size: { radius: 0.35, height: 0.3 }, color: '#e8c547', group: 'shade' },
  ],
};

let root: string;
let grader: Grader;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'splatlab-rebuild-'));
  grader = await Grader.create({ lpipsDir: null });
});
afterAll(() => {
  grader?.destroy();
  rmSync(root, { recursive: true, force: true });
});

describe('objects as documents', () => {
  it('rebuilds an authored object by name, refits it from its photos, and keeps its history', async () => {
    const tasksDir = join(root, 'doc');
    await buildObject('lamp', { object: lamp, source: 'authored', steps: 2, seed: 1, tasksDir, grader, samples: 1 });
    expect(listObjectDocuments(tasksDir)).toMatchObject([{ name: 'lamp', source: 'authored', editable: true, builtIn: false }]);
    expect(openObject(tasksDir, 'lamp').object.parts).toHaveLength(3);

    // A bare rebuild repeats the recipe (steps 2, seed 1) and adds no duplicate history entry.
    await rebuildObject('lamp', { tasksDir, grader, samples: 1 });
    const dir = join(tasksDir, 'objects', 'lamp');
    const read = (): { steps: number; seed: number; history: { action: string; steps: number }[] } => JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8'));
    expect(read().history).toHaveLength(1);
    const anchorsBefore = readFileSync(join(dir, 'anchors.json'), 'utf8');
    await rebuildObject('lamp', { tasksDir, grader, steps: 4, keepPhotos: true });
    expect(read().history.map((h) => [h.action, h.steps])).toEqual([['build', 2], ['refit', 4]]);
    expect(readFileSync(join(dir, 'anchors.json'), 'utf8')).not.toBe(anchorsBefore);
    const report = await checkTask('lamp__sculpt', grader, tasksDir);
    expect(report.problems).toEqual([]);

    await expect(rebuildObject('desk', { tasksDir, grader })).rejects.toThrow(/unknown object 'desk' \(objects here: .*lamp/);
  });
});

describe('scene generator', () => {
  it('is seeded and stands every object on the ground without overlapping footprints', () => {
    const a = generateScene(11, PROCEDURAL_OBJECTS);
    expect(JSON.stringify(generateScene(11, PROCEDURAL_OBJECTS))).toBe(JSON.stringify(a));
    expect(JSON.stringify(generateScene(12, PROCEDURAL_OBJECTS))).not.toBe(JSON.stringify(a));
    for (let seed = 0; seed < 20; seed++) {
      const { object, placed } = generateScene(seed, PROCEDURAL_OBJECTS, { minObjects: 2, maxObjects: 4 });
      expect(placed.length).toBeGreaterThanOrEqual(1);
      for (let i = 0; i < placed.length; i++) {
        for (let j = i + 1; j < placed.length; j++) {
          const [p, q] = [placed[i], placed[j]];
          expect(Math.hypot(p.centre[0] - q.centre[0], p.centre[1] - q.centre[1])).toBeGreaterThanOrEqual(p.radius + q.radius);
        }
        const parts = object.parts.filter((x) => x.group === placed[i].group);
        const bottom = Math.min(...parts.map((x) => partAabb(x).min[2]));
        expect(bottom).toBeCloseTo(GROUND_Z, 9);
      }
    }
  });

  it('emits the three tasks of a scene with the batch budgets, passing the conformance check', async () => {
    const tasksDir = join(root, 'gen');
    const [r] = await generateBatch({ seed: 3, count: 1, library: ['snowman', 'mushroom'], minObjects: 2, maxObjects: 2, steps: 3, budgets: { gaussians: 120, calls: 55, renders: 21 }, tasksDir, grader, samples: 1 });
    expect(r.object).toBe('gen3_01');
    const sculpt = readSpec(tasksDir, 'gen3_01__sculpt');
    expect([sculpt.max_gaussians, sculpt.max_tool_calls, sculpt.max_renders]).toEqual([120, 55, 21]);
    const oneshot = readSpec(tasksDir, 'gen3_01__oneshot');
    expect([oneshot.max_gaussians, oneshot.max_tool_calls, oneshot.max_renders]).toEqual([120, 1, 0]);
    expect(existsSync(join(tasksDir, 'objects', 'gen3_01', 'object.json'))).toBe(true);
    const build = JSON.parse(readFileSync(join(tasksDir, 'objects', 'gen3_01', 'build.json'), 'utf8')) as { source: string; generator: { placed: unknown[] } };
    expect(build.source).toBe('generated');
    expect(build.generator.placed).toHaveLength(2);
    for (const kind of ['sculpt', 'reassembly', 'oneshot']) {
      expect((await checkTask(`gen3_01__${kind}`, grader, tasksDir)).problems).toEqual([]);
    }
  });
});
