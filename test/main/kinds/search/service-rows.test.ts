// Two search service rows that search-service.test.ts does not reach, through the real dispatcher:
// `search.open` on a committed procedural room answers kind 'procedural' (the UI picks its
// collider text by it), and `search.annotation.verify` records a second annotator and answers the
// agreement (docs/MUTATION.md, search survivors).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchCall } from '../../../../src/main/services/dispatch';
import { createLabServices } from '../../../../src/main/services/lab';
import { writeGeneratedCapture } from './capture-fixture';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'search-rows-'));
  await writeGeneratedCapture(join(dir, 'tasks'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function services(tasksDir: string) {
  return createLabServices({
    gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: 'CPU reference', summary: 'test' } },
    tasksDir, home: join(dir, 'home'), version: '0.0.0-test', transport: 'direct', listTasks: async () => [],
  });
}

describe('search service rows', () => {
  it('opens a committed procedural room as kind procedural', async () => {
    const { handlers, context } = services(join(process.cwd(), 'tasks'));
    try {
      const opened = await dispatchCall(handlers, 'search.open', { room: 'search/rooms/room-6.json' });
      expect(opened).toMatchObject({ ok: true, result: { kind: 'procedural', room: 'search/rooms/room-6.json' } });
    } finally {
      await context.close();
    }
  }, 60_000);

  it('verifies a saved annotation with a second annotator and answers the agreement', async () => {
    const { handlers, context } = services(join(dir, 'tasks'));
    try {
      const room = 'search/captures/gen-capture.json';
      const start = { x: 1.5, y: 1.5, z: 1.25, yaw: 0, pitch: 0 };
      const marks = [{ pose: start, answerable: true }];
      await dispatchCall(handlers, 'search.open', { room });
      const saved = await dispatchCall(handlers, 'search.annotation.save', {
        id: 'v1', room, question: { family: 'color', text: 'What colour is the cube?', needs: ['cube'] }, answer: { type: 'text', correct: 'red', synonyms: [] },
        start, first: { annotator: 'a', started: 't0', finished: 't1', marks },
      });
      expect(saved).toMatchObject({ ok: true, result: { id: 'v1' } });
      const verified = await dispatchCall(handlers, 'search.annotation.verify', { id: 'v1', annotator: 'b', started: 't2', answer: 'red', marks });
      expect(verified).toMatchObject({ ok: true, result: { agreement: { answer: true, shared: 1, agreeing: 1 } } });
      const listed = await dispatchCall(handlers, 'search.annotations', {});
      expect(listed).toMatchObject({ ok: true, result: [{ id: 'v1', first: 'a', second: 'b' }] });
    } finally {
      await context.close();
    }
  }, 60_000);
});
