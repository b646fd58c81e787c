// The search annotation rows through the real dispatcher: a generated capture opens, moves
// collide or not as the collider says, a look is a PNG, and the blind row carries no answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchCall } from '../../../../src/main/services/dispatch';
import { createLabServices } from '../../../../src/main/services/lab';
import { writeGeneratedCapture } from './capture-fixture';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'search-service-'));
  await writeGeneratedCapture(join(dir, 'tasks'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('search annotation rows', () => {
  it('opens a capture, moves, looks, saves and hides the answer from the blind row', async () => {
    const { handlers, context } = createLabServices({
      gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: 'CPU reference', summary: 'test' } },
      tasksDir: join(dir, 'tasks'), home: join(dir, 'home'), version: '0.0.0-test', transport: 'direct', listTasks: async () => [],
    });
    try {
      const rooms = await dispatchCall(handlers, 'search.rooms', {});
      expect(rooms).toMatchObject({ ok: true });
      const room = 'search/captures/gen-capture.json';
      const opened = await dispatchCall(handlers, 'search.open', { room });
      expect(opened).toMatchObject({ ok: true, result: { kind: 'capture', start: { x: 1.5, y: 1.5, z: 1.25 } } });
      const start = { x: 1.5, y: 1.5, z: 1.25, yaw: 0, pitch: 0 };
      expect(await dispatchCall(handlers, 'search.move', { room, pose: start, action: 'move_left' })).toMatchObject({ ok: true, result: { pose: { y: 1.75 }, collided: false } });
      expect(await dispatchCall(handlers, 'search.move', { room, pose: { ...start, y: 2.8 }, action: 'move_left' })).toMatchObject({ ok: true, result: { collided: true } });
      const look = await dispatchCall(handlers, 'search.look', { room, pose: start, size: 64 });
      expect(JSON.stringify(look)).toContain('data:image/png;base64,');
      const saved = await dispatchCall(handlers, 'search.annotation.save', {
        id: 'q1', room, question: { family: 'color', text: 'What colour is the cube?', needs: ['cube'] }, answer: { type: 'text', correct: 'red', synonyms: ['scarlet'] },
        start, first: { annotator: 'a', started: 't0', finished: 't1', marks: [{ pose: start, answerable: false }] },
      });
      expect(saved).toMatchObject({ ok: true, result: { id: 'q1' } });
      const blind = await dispatchCall(handlers, 'search.annotation.blind', { id: 'q1' });
      expect(blind).toMatchObject({ ok: true });
      expect(JSON.stringify(blind)).not.toMatch(/red|scarlet|marks/);
    } finally {
      await context.close();
    }
  }, 60_000);
});
