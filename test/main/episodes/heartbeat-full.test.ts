// episode.heartbeat on a full disk (issue 38 item 2): the process log lies on a device that
// answers every write with ENOSPC (/dev/full, the kernel's full disk), so the beat that carries
// events must answer that they were not written, and once space is back the resent beat lands
// whole: of every event sent exactly one copy, one record per line, no torn line. Before the fix
// the beat answered ok while its events were dropped.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import type { Grader } from '../../../src/main/grader/grader';
import { labMethods } from '../../../src/shared/api/lab';
import { processLogPath, readProcessLog, type ProcessEvent } from '../../../src/shared/env/process-log';
import { testTasks } from '../env/fixtures';
import { loopTurnsDuring } from '../../helpers/loop-turns';

let tasksDir: string;
let grader: Grader;

beforeAll(async () => {
  ({ tasksDir, grader } = await testTasks());
});

describe('a heartbeat on a full disk', () => {
  it('reports that its events were not written, and the resent beat lands once', async () => {
    expect(existsSync('/dev/full'), 'this test needs /dev/full (Linux)').toBe(true);
    const home = mkdtempSync(join(tmpdir(), 'splatlab-beat-full-'));
    const m = new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
    const s = await m.start({ taskId: 'test__sculpt', player: 'p01' });
    const stream = processLogPath(m.info(s.episodeId).logPath);
    const events = (i: number): ProcessEvent[] => Array.from({ length: 40 }, (_, k) => ({ t: 1_000 + i * 100 + k, e: 'camera', d: { m: [i, k, 0.5], f: 443.4 } }));
    await m.heartbeat(s.episodeId, { sentAt: Date.now(), events: events(0) });
    rmSync(stream);
    symlinkSync('/dev/full', stream); // the disk fills
    await expect(m.heartbeat(s.episodeId, { sentAt: Date.now(), events: events(1) })).rejects.toThrow(/process events were not written \(disk full: no space left on device\)/);
    rmSync(stream); // space is back (a fresh file: what was written before the disk filled is kept below)
    await m.heartbeat(s.episodeId, { sentAt: Date.now(), events: events(1) });
    await m.heartbeat(s.episodeId, { sentAt: Date.now(), events: events(2) });
    const read = readProcessLog(readFileSync(stream, 'utf8'));
    expect(read.torn).toBe(0);
    expect(read.events.map((e) => e.t)).toEqual([...events(1), ...events(2)].map((e) => e.t));
    m.close(s.episodeId);
    await m.idle();
  });

  it('writes a beat\'s events off the event loop: the loop turns before the beat answers', async () => {
    const home = mkdtempSync(join(tmpdir(), 'splatlab-beat-async-'));
    const m = new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
    const s = await m.start({ taskId: 'test__sculpt', player: 'p01' });
    const beat = (i: number): ProcessEvent[] => Array.from({ length: 40 }, (_, k) => ({ t: 5_000 + i * 100 + k, e: 'camera', d: { m: [i, k], f: 443.4 } }));
    await m.heartbeat(s.episodeId, { sentAt: Date.now(), events: beat(0) });
    const { turns } = await loopTurnsDuring(() => m.heartbeat(s.episodeId, { sentAt: Date.now(), events: beat(1) }));
    // A synchronous append answers the beat before the loop turns once.
    expect(turns).toBeGreaterThan(0);
    expect(readProcessLog(readFileSync(processLogPath(m.info(s.episodeId).logPath), 'utf8')).events).toHaveLength(80);
    m.close(s.episodeId);
    await m.idle();
  });

  it('refuses a beat time past the largest date in its schema, not with "Invalid time value"', () => {
    const params = labMethods['episode.heartbeat'].params;
    expect(params.safeParse({ episodeId: 'e', sentAt: 8.64e15 }).success).toBe(true);
    const r = params.safeParse({ episodeId: 'e', sentAt: 1e16, calls: [{ step: 1, sentAt: 1, shownAt: 9e15 }] });
    expect(r.success ? [] : r.error.issues.map((i) => i.message)).toEqual(['a time past the largest date (8.64e15 ms)', 'a time past the largest date (8.64e15 ms)']);
  });
});
