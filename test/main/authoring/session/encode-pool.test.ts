// The Author view's previews and photo sheets are PNG-encoded where the session is told (the lab:
// job 'image.png' on its worker pool, src/main/services/author.ts; issue 38 item 1): the data URLs
// are the same bytes as the session's own encoding, and every image goes through the option. A
// scramble (k-means and its two scenes drawn, job 'author.scramble') likewise gives this thread's
// result exactly.
import { afterAll, describe, expect, it } from 'vitest';
import type { AuthorObject } from '../../../../src/shared/api/author';
import { cpuFitBackend } from '../../../../src/shared/authoring/fit/backend';
import { AuthorSession, namedCamera, type SessionOptions } from '../../../../src/main/authoring/session/session';
import { PhotoCaster } from '../../../../src/main/authoring/session/photos';
import { drawnScramble, type ScrambleInput } from '../../../../src/main/authoring/session/scramble-view';
import type { GaussianRecord } from '../../../../src/shared/scene/gaussian';
import { WorkerPool } from '../../../../src/main/workers/pool';

const object: AuthorObject = { name: 'cup', parts: [{ kind: 'cylinder', pos: [0, 0, 0], size: { radius: 0.4, height: 0.6 }, color: '#c0392b', group: 'body' }] };
const pool = new WorkerPool({ size: 1 });
afterAll(() => pool.close());

function session(extra: Partial<SessionOptions> = {}): AuthorSession {
  return new AuthorSession({
    tasksDir: '/nonexistent-tasks',
    caster: new PhotoCaster(null),
    grader: () => Promise.reject(new Error('no grader in this test')),
    fitBackend: async () => ({ backend: cpuFitBackend(), description: 'cpu', release: () => undefined }),
    ...extra,
  });
}

describe('author images on the worker pool', () => {
  it('encodes previews and sheets through the pool, to the same PNG bytes', async () => {
    const encoded: number[] = [];
    const onPool = session({ encodePng: (image) => (encoded.push(image.width), pool.run('image.png', { image }, { client: 'author' })) });
    const here = session();
    const camera = namedCamera('V0', 32) as NonNullable<ReturnType<typeof namedCamera>>;
    expect((await onPool.preview(object, camera, 1)).image).toBe((await here.preview(object, camera, 1)).image);
    const [a, b] = [await onPool.sheet(object, 'reference', 24), await here.sheet(object, 'reference', 24)];
    expect(a.views.map((v) => v.image)).toEqual(b.views.map((v) => v.image));
    expect(encoded).toEqual([32, ...a.views.map(() => 24)]);
  }, 120_000);

  it('scrambles and draws on the pool, the same result as this thread', async () => {
    // Two loose clumps of Gaussians, as a fit of a two-part object gives.
    const records: GaussianRecord[] = Array.from({ length: 24 }, (_, i) => ({
      id: i,
      pos: [(i % 2 ? 0.3 : -0.3) + ((i * 7) % 5) * 0.01, ((i * 3) % 7) * 0.02 - 0.06, ((i * 5) % 11) * 0.01],
      scale: [0.05, 0.05, 0.05],
      quat: [1, 0, 0, 0],
      color: [0.8, 0.3, 0.2],
      opacity: 0.9,
    }));
    const input: ScrambleInput = { records, k: 2, seed: 5 };
    const onPool = await pool.run('author.scramble', input, { client: 'author' });
    const here = drawnScramble(input);
    expect(onPool).toEqual(here);
    expect(here.partViews.map((v) => v.image.length)).toEqual([expect.any(Number), expect.any(Number)]);
  }, 60_000);
});
