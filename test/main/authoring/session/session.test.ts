// The authoring session end to end in Node: compose an object from primitives, preview it, run a
// short fit with progress and snapshots, cancel another, scramble, save, and check that the
// environment's conformance check accepts the saved tasks and listTasks shows them at once.
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthorObject, FitProgressEvent, FitSnapshotEvent, FitStatus } from '../../../../src/shared/api/author';
import { cpuFitBackend } from '../../../../src/shared/authoring/fit/backend';
import { AuthorSession, namedCamera } from '../../../../src/main/authoring/session/session';
import { PhotoCaster } from '../../../../src/main/authoring/session/photos';
import { Grader } from '../../../../src/main/grader/grader';
import { listTasks } from '../../../../src/main/tasks/load';
import { decodePng } from '../../../../src/main/io/png';

const SIZE = 48;

const object: AuthorObject = {
  name: 'lamp',
  parts: [
    { kind: 'cylinder', pos: [0, 0, -0.6], size: { radius: 0.35, height: 0.12 }, color: '#3a3f4b', group: 'base' },
    { kind: 'cylinder', pos: [0, 0, -0.1], size: { radius: 0.06, height: 0.9 }, color: '#9aa0aa', group: 'stem' },
    { kind: 'cone', pos: [0, 0, 0.5], size: { radius: 0.45, height: 0.4 }, color: '#e8c547', group: 'shade' },
  ],
};

function pngOf(dataUrl: string): ReturnType<typeof decodePng> {
  return decodePng(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
}

describe('authoring session', () => {
  let tasksDir: string;
  let grader: Grader;
  let session: AuthorSession;
  const progress: FitProgressEvent[] = [];
  const snapshots: FitSnapshotEvent[] = [];
  const ends: FitStatus[] = [];

  beforeAll(async () => {
    tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-author-')), 'tasks');
    grader = await Grader.create({ device: null, lpipsDir: null });
    session = new AuthorSession({
      tasksDir,
      caster: new PhotoCaster(null),
      grader: async () => grader,
      fitBackend: async () => ({ backend: cpuFitBackend(), description: 'cpu', release: () => undefined }),
      onFitProgress: (e) => progress.push(e),
      onFitSnapshot: (e) => snapshots.push(e),
      onFitEnd: (s) => ends.push(s),
      snapshotEveryMs: 0,
    });
  });
  afterAll(() => grader?.destroy());

  it('previews the exact photo from a named view and from an explicit camera', async () => {
    const front = await session.preview(object, namedCamera('V0', 64) as NonNullable<ReturnType<typeof namedCamera>>, 1);
    const png = pngOf(front.image);
    expect([png.width, png.height]).toEqual([64, 64]);
    // The shade (yellow) covers the upper middle; the corners stay white.
    const px = (x: number, y: number) => Array.from(png.data.subarray((y * 64 + x) * png.channels, (y * 64 + x) * png.channels + 3), (v) => Math.round(v * 255));
    expect(px(0, 0)).toEqual([255, 255, 255]);
    const mid = px(32, 22);
    expect(mid[0]).toBeGreaterThan(mid[2] + 40);
    const sheet = await session.sheet(object, 'heldout', SIZE);
    expect(sheet.views.map((v) => v.name)).toEqual(['H0', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7']);
  });

  it('refuses to fit an object with a part outside the bounds, naming the part', async () => {
    const bad: AuthorObject = { name: 'bad', parts: [{ kind: 'sphere', pos: [0.9, 0, 0], size: 0.3, color: '#ff0000' }] };
    await expect(session.startFit(bad, { steps: 2, size: SIZE })).rejects.toThrow(/part 0 \(sphere\).*bounds/);
  });

  it('cancels a running fit', async () => {
    const started = await session.startFit(object, { steps: 5000, seed: 0, size: SIZE });
    expect(started.state).toBe('running');
    await new Promise((r) => setTimeout(r, 300));
    expect(session.cancelFit(started.jobId)).toBe(true);
    const end = await session.fitFinished();
    expect(end?.state).toBe('cancelled');
    expect(end?.step).toBeLessThan(5000);
    await expect(session.scramble()).rejects.toThrow(/cancelled/);
  });

  it('fits with progress events, snapshots and anchors; scrambles; saves a conforming task', async () => {
    progress.length = 0;
    snapshots.length = 0;
    const started = await session.startFit(object, { steps: 12, seed: 3, size: SIZE });
    const end = await session.fitFinished();
    expect(end?.state).toBe('done');
    expect(end?.losses).toHaveLength(12);
    // The events carry every loss exactly once, in order.
    const streamed = progress.filter((e) => e.jobId === started.jobId).flatMap((e) => e.losses);
    expect(streamed).toEqual(end?.losses);
    expect(snapshots.some((s) => s.jobId === started.jobId && s.views.length === 8)).toBe(true);
    expect(ends.at(-1)?.jobId).toBe(started.jobId);
    const anchors = end?.anchors;
    expect(anchors?.fit.psnr).toBeGreaterThan(anchors?.empty.psnr ?? Infinity);
    expect(anchors?.fit.iou).toBeGreaterThan(0.3);

    const s1 = await session.scramble(4, 7);
    expect(s1.parts.map((p) => p.label)).toEqual(['part_a', 'part_b', 'part_c', 'part_d']);
    expect(s1.partViews).toHaveLength(2);
    const again = await session.scramble(4, 8);
    expect(again.scrambledViews[0].image).not.toBe(s1.scrambledViews[0].image);
    await session.scramble(4, 7);

    const saved = await session.save('lamp');
    expect(saved.taskIds).toEqual(['lamp__sculpt', 'lamp__reassembly', 'lamp__oneshot']);
    expect(saved.conformance.map((c) => c.problems)).toEqual([[], [], []]);
    expect(saved.ok).toBe(true);
    const dir = join(tasksDir, 'objects', 'lamp');
    for (const f of ['object.json', 'cameras.json', 'ref/V0.png', 'ref/V7_mask.png', 'heldout/H7.png', 'fit.json', 'fit_loss.png', 'anchors.json', 'init_reassembly.npz', 'parts_truth.json', 'build.json']) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(dir, 'parts_truth.json'), 'utf8'))).toMatchObject({ k: 4, seed: 7 });
    expect(JSON.parse(readFileSync(join(dir, 'object.json'), 'utf8')).parts).toHaveLength(3);
    expect((await listTasks(tasksDir)).map((t) => t.id)).toEqual(expect.arrayContaining(saved.taskIds));
    await expect(session.save('lamp')).rejects.toThrow(/already exists/);
    expect(session.state().fit?.jobId).toBe(started.jobId);
  });

  it('marks the fit stale when the author changes the object, and refuses to save it', async () => {
    const moved: AuthorObject = { ...object, parts: [{ ...object.parts[0], pos: [0, 0, -0.5] }, ...object.parts.slice(1)] };
    await session.preview(moved, namedCamera('V1', 32) as NonNullable<ReturnType<typeof namedCamera>>, 1);
    expect(session.state().fit?.stale).toBe(true);
    await expect(session.save('lamp2')).rejects.toThrow(/changed since the fit/);
  });
});
