// The Author view's previews and photo sheets are PNG-encoded where the session is told (the lab:
// job 'image.png' on its worker pool, src/main/services/author.ts; issue 38 item 1): the data URLs
// are the same bytes as the session's own encoding, and every image goes through the option.
import { afterAll, describe, expect, it } from 'vitest';
import type { AuthorObject } from '../../../../src/shared/api/author';
import { cpuFitBackend } from '../../../../src/shared/authoring/fit/backend';
import { AuthorSession, namedCamera, type SessionOptions } from '../../../../src/main/authoring/session/session';
import { PhotoCaster } from '../../../../src/main/authoring/session/photos';
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
});
