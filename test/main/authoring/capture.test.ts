// The seed's task set from captures (issue 34): the shared NeRF-Synthetic lego and one synthesised
// photographed capture in four layouts (COLMAP text and binary with a RADIAL lens, LLFF, MVSNet)
// built by buildTaskSet with a short fit; every task conforms, every fit beats the empty scene and
// one average-colour Gaussian on the held-out views, COLMAP and LLFF place the object alike and
// where it truly is; a rerun resumes; broken captures fail in one line and write nothing.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCapture } from '../../../src/main/authoring/capture';
import { buildTaskSet, MANIFEST_FILE } from '../../../src/main/authoring/task-set';
import { buildSetCommand } from '../../../src/main/cli/commands/build-set';
import { checkTask } from '../../../src/main/episodes/conformance';
import { Grader } from '../../../src/main/grader/grader';
import { testDataDir } from '../../helpers/data';
import { loadTask } from '../../../src/main/tasks/load';
import { partAabb } from '../../../src/shared/authoring/geometry';
import { getObject } from '../../../src/shared/authoring/objects/index';
import { cameraCentre } from '../../../src/shared/camera/orbit';
import { packSplats } from '../../../src/shared/scene/gaussian';
import { writeCaptureFixture, type CaptureFixture } from './capture-fixture';

const root = mkdtempSync(join(tmpdir(), 'splatlab-capture-'));
const lego = join(testDataDir(), 'nerf-synthetic-lego-24');
const LAYOUTS = { captxt: 'colmap-text', capbin: 'colmap-binary', capllff: 'llff', capmvs: 'mvsnet' } as const;
let fixture: CaptureFixture;
let grader: Grader;

beforeAll(async () => {
  fixture = writeCaptureFixture(join(root, 'capture'));
  grader = await Grader.create({ lpipsDir: null });
}, 120_000);
afterAll(() => {
  grader?.destroy();
  rmSync(root, { recursive: true, force: true });
});

/** The source.json map: task world = s * (L * capture - c). */
function toTask(src: { levelling: { rotation: number[] }; normalisation: { centre: number[]; scale: number } }, p: number[]): number[] {
  const L = src.levelling.rotation;
  const lv = [0, 1, 2].map((i) => L[3 * i] * p[0] + L[3 * i + 1] * p[1] + L[3 * i + 2] * p[2]);
  return lv.map((v, a) => src.normalisation.scale * (v - src.normalisation.centre[a]));
}

describe('tasks build of the seed set from captures', () => {
  const tasksDir = join(root, 'tasks');
  it('builds lego and the capture in four layouts; every task conforms and its fit beats the weak baselines', async () => {
    expect(existsSync(lego), `the shared capture ${lego} is missing`).toBe(true);
    const nerf = join(root, 'nerf_synthetic');
    mkdirSync(nerf);
    symlinkSync(lego, join(nerf, 'lego'));
    const lines: string[] = [];
    const opts = {
      tasksDir, nerfSynthetic: nerf, procedural: false, steps: 12, grader, log: (l: string) => lines.push(l),
      captures: Object.entries(LAYOUTS).map(([name, layout]) => ({ name, dir: join(root, 'capture', layout) })),
    };
    const res = await buildTaskSet(opts);
    expect(res.failed).toEqual([]);
    expect(res.built.sort()).toEqual(['capbin', 'capllff', 'capmvs', 'captxt', 'lego']);
    // Absent scenes: one line naming each.
    const absent = lines.filter((l) => l.startsWith('absent'));
    expect(absent).toHaveLength(1);
    for (const name of ['chair', 'hotdog', 'ficus', 'mic', 'drums', 'ignatius', 'caterpillar', 'jade']) expect(absent[0]).toContain(name);
    expect(lines.some((l) => /\[1\/5\] lego \(synthetic\): built/.test(l))).toBe(true);

    const manifest = JSON.parse(readFileSync(join(tasksDir, MANIFEST_FILE), 'utf8'));
    expect(manifest.objects.lego.source).toBe('synthetic');
    expect(manifest.objects.lego.files).toHaveLength(25); // transforms + 24 frames
    expect(manifest.objects.captxt.source).toBe('photographed');
    // cameras.txt, images.txt, 30 photos and 30 masks, each with its SHA-256.
    expect(manifest.objects.captxt.files).toHaveLength(62);
    expect(manifest.objects.captxt.files.every((f: { sha256: string }) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);

    for (const object of res.built) {
      for (const kind of ['sculpt', 'reassembly', 'oneshot']) {
        const report = await checkTask(`${object}__${kind}`, grader, tasksDir);
        expect(report.problems, `${object}__${kind}`).toEqual([]);
      }
      const task = await loadTask(`${object}__sculpt`, { tasksDir });
      expect(task.spec.source).toBe(object === 'lego' ? 'synthetic' : 'photographed');
      expect(task.reference).toHaveLength(8);
      expect(task.heldout).toHaveLength(8);
      // One Gaussian in the object's average colour, as big as the object.
      let sum = [0, 0, 0];
      let w = 0;
      for (const v of task.reference) {
        for (let i = 0; i < v.mask.length; i++) {
          const m = v.mask[i];
          if (m < 0.5) continue;
          sum = sum.map((s, k) => s + v.photo.data[i * 3 + k]);
          w++;
        }
      }
      const blob = packSplats([{ id: 0, pos: [0, 0, 0], scale: [0.45, 0.45, 0.45], quat: [1, 0, 0, 0], color: sum.map((s) => s / w) as [number, number, number], opacity: 0.99 }]);
      const single = await grader.grade(task, blob);
      expect(task.anchors.fit.psnr, object).toBeGreaterThan(Math.max(task.anchors.empty.psnr, single.psnr));
      expect(task.anchors.fit.iou, object).toBeGreaterThan(single.iou);
      expect(single.score, object).toBeLessThan(100);
      // The photos are on white: the background the capture had is gone.
      const corner = task.reference[0].photo.data.subarray(0, 3);
      expect([...corner].every((c) => c > 0.98), object).toBe(true);
    }

    // COLMAP (distorted, undistorted here) and LLFF place the object within 1 % of each other.
    const src = (o: string) => JSON.parse(readFileSync(join(tasksDir, 'objects', o, 'source.json'), 'utf8'));
    const a = src('captxt');
    const b = src('capllff');
    expect(Math.abs(a.normalisation.scale / b.normalisation.scale - 1)).toBeLessThan(0.01);
    for (const p of [[0, 0, 0], [3, -2, 4], [-5, 1, 2]]) {
      const pa = toTask(a, p);
      const pb = toTask(b, p);
      expect(Math.hypot(...pa.map((v, i) => v - pb[i]))).toBeLessThan(0.01 * Math.hypot(...pb));
    }
    // And where it is: the robot's true box lands centred in the bounds cube, upright.
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    const capture = (p: number[]): number[] => [0, 1, 2].map((i) => fixture.rotation[3 * i] * p[0] / fixture.scale + fixture.rotation[3 * i + 1] * p[1] / fixture.scale + fixture.rotation[3 * i + 2] * p[2] / fixture.scale + fixture.shift[i]);
    for (const part of getObject('robot').parts) {
      const box = partAabb(part);
      for (let c = 0; c < 8; c++) {
        const q = toTask(a, capture([c & 1 ? box.max[0] : box.min[0], c & 2 ? box.max[1] : box.min[1], c & 4 ? box.max[2] : box.min[2]]));
        for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], q[k]); hi[k] = Math.max(hi[k], q[k]); }
      }
    }
    for (let k = 0; k < 3; k++) {
      expect(lo[k]).toBeGreaterThan(-0.95);
      expect(hi[k]).toBeLessThan(0.95);
      expect(Math.abs(lo[k] + hi[k])).toBeLessThan(0.1);
    }
    const up = toTask(a, capture([0, 0, 1])).map((v, k) => v - toTask(a, capture([0, 0, 0]))[k]);
    expect(up[2] / Math.hypot(...up)).toBeGreaterThan(Math.cos((5 * Math.PI) / 180));
    const cam = await loadTask('captxt__sculpt', { tasksDir });
    expect(cameraCentre(cam.reference[0].camera)[2]).toBeGreaterThan(0); // cameras above the ground, as shot

    // A rerun resumes: nothing is rebuilt.
    const again = await buildTaskSet({ ...opts, log: () => undefined });
    expect(again.built).toEqual([]);
    expect(again.skipped.sort()).toEqual(['capbin', 'capllff', 'capmvs', 'captxt', 'lego']);
  }, 600_000);

  it('stops on cancel without a half task and resumes after the objects already built', async () => {
    const out = join(root, 'tasks-cancel');
    const abort = new AbortController();
    const captures = [{ name: 'first', dir: join(root, 'capture', 'mvsnet') }, { name: 'second', dir: join(root, 'capture', 'llff') }];
    // Cancel inside the second object's build, once its photos are staged and the fit starts.
    const log = (l: string): void => { if (/^second: object scaled by/.test(l)) abort.abort(); };
    const err = await buildTaskSet({ tasksDir: out, procedural: false, steps: 2, grader, captures, log, signal: abort.signal }).then(() => null, (e: Error) => e);
    expect(err).not.toBeNull();
    expect(readdirSync(out).sort()).toEqual(['first__oneshot.json', 'first__reassembly.json', 'first__sculpt.json', 'objects', MANIFEST_FILE]);
    expect(readdirSync(join(out, 'objects'))).toEqual(['first']);
    const again = await buildTaskSet({ tasksDir: out, procedural: false, steps: 2, grader, captures });
    expect(again.skipped).toEqual(['first']);
    expect(again.built).toEqual(['second']);
  }, 300_000);

  it('tasks build: exit 1 when a present object fails, one line per failure; an unknown set is refused', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: () => undefined };
    const dir = join(root, 'no-such-capture');
    const code = await buildSetCommand(['splatbench', '--no-procedural', '--no-lpips', '--capture', `ghost=${dir}`, '--tasks', join(root, 'tasks-cli')], io);
    expect(code).toBe(1);
    expect(out).toContain(`failed: ghost: no such folder ${dir}`);
    await expect(buildSetCommand(['nosuchset'], io)).rejects.toThrow(/tasks build takes a task set name: splatbench \(got 'nosuchset'\)/);
    await expect(buildSetCommand(['splatbench', '--capture', 'a__b=/x'], io)).rejects.toThrow(/--capture takes OBJECT=DIR/);
  });

  const broken: [string, (dir: string) => void, RegExp][] = [
    ['a missing mask', (d) => rmSync(join(d, 'masks', 'img_004.jpg.png')), /^no mask for 1 of 30 photos in .*masks \(img_004\.jpg;/],
    ['a camera of an unknown model', (d) => writeFileSync(join(d, 'sparse/0/cameras.txt'), '1 FISHEYE_X 120 90 100 60 45\n'), /camera model FISHEYE_X is not supported/],
    ['a missing photo', (d) => rmSync(join(d, 'images', 'img_010.jpg')), /^missing 1 of 30 photos in .*images \(img_010\.jpg\)/],
  ];
  for (const [what, edit, message] of broken) {
    it(`refuses a capture with ${what} in one line and writes nothing`, async () => {
      const dir = join(root, `broken-${what.replace(/ /g, '-')}`);
      cpSync(join(root, 'capture', 'colmap-text'), dir, { recursive: true });
      edit(dir);
      const out = join(root, `tasks-${what.replace(/ /g, '-')}`);
      const err = await importCapture(dir, { id: 'broken', steps: 1, tasksDir: out, grader }).then(() => null, (e: Error) => e);
      expect(err?.message).toMatch(message);
      expect(err?.message.includes('\n')).toBe(false);
      expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
      // Through the set build: the object fails in one line, the exit status says so, nothing is written.
      const res = await buildTaskSet({ tasksDir: out, procedural: false, steps: 1, grader, captures: [{ name: 'broken', dir }] });
      expect(res.failed).toEqual([{ object: 'broken', error: err?.message }]);
      expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
    });
  }
});
