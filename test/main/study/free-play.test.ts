// Free play in Results (issue 30 item 6): the Play screen's logs under <home>/trajectories/ become
// rows with the run's one score, sorted by task then start; a log name from the client cannot
// leave the folder; the archive part carries both tables and every log with its process log.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { strFromU8 } from 'fflate';
import { FREE_PLAY_SOURCE, freePlayArchiveFiles, freePlayLogs, freePlayPath, freePlayResults } from '../../../src/main/study/free-play';

function log(task: string, player: string, started: string, score: number | null): string {
  const lines: object[] = [
    { type: 'header', task, protocol: 'free', player, versions: {}, started },
    { step: 0, tool: 'reset', args: {}, text: 'start', t: started, ms: 0 },
    { step: 1, tool: 'submit', args: {}, text: 'done', t: started, ms: 5, ...(score === null ? {} : { hidden: { score } }) },
  ];
  if (score !== null) lines.push({ type: 'end', reason: 'submit', score, reward: score / 100, training_reward: 0.5, calls_used: 1, t: started });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

describe('free-play episodes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'splatlab-free-'));
  writeFileSync(join(dir, 'b-2.jsonl'), log('task_b', 'ann', '2026-01-02T00:00:00.000Z', 41.5));
  writeFileSync(join(dir, 'a-1.jsonl'), log('task_a', 'bob', '2026-01-03T00:00:00.000Z', 12.25));
  writeFileSync(join(dir, 'a-0.jsonl'), log('task_a', 'cy', '2026-01-05T00:00:00.000Z', null));
  writeFileSync(join(dir, 'a-1.process.ndjson'), '{"t":0,"kind":"select"}\n');
  writeFileSync(join(dir, 'notes.txt'), 'not a log');

  it('lists one row per log with its one score, by task then start', () => {
    expect(freePlayLogs(dir)).toEqual(['a-0.jsonl', 'a-1.jsonl', 'b-2.jsonl']);
    const rows = freePlayResults(dir);
    expect(rows.map((r) => [r.taskId, r.participant, r.score, r.complete, r.source, r.log])).toEqual([
      ['task_a', 'bob', 12.25, true, FREE_PLAY_SOURCE, 'a-1.jsonl'],
      ['task_a', 'cy', null, false, FREE_PLAY_SOURCE, 'a-0.jsonl'],
      ['task_b', 'ann', 41.5, true, FREE_PLAY_SOURCE, 'b-2.jsonl'],
    ]);
    expect(freePlayResults(join(dir, 'missing'))).toEqual([]);
  });

  it('refuses a log name that leaves the folder or is not a log of it', () => {
    expect(freePlayPath(dir, 'a-1.jsonl')).toBe(join(dir, 'a-1.jsonl'));
    expect(() => freePlayPath(dir, '../a-1.jsonl')).toThrow("no free-play episode '../a-1.jsonl'");
    expect(() => freePlayPath(dir, 'notes.txt')).toThrow('no free-play episode');
    expect(() => freePlayPath(dir, 'zz.jsonl')).toThrow('no free-play episode');
  });

  it('puts the tables and the logs in the archive under free-play/', () => {
    const files = freePlayArchiveFiles(dir);
    expect([...files.keys()].sort()).toEqual([
      'free-play/episodes.csv', 'free-play/summary.csv',
      'free-play/trajectories/a-0.jsonl', 'free-play/trajectories/a-1.jsonl', 'free-play/trajectories/a-1.process.ndjson', 'free-play/trajectories/b-2.jsonl',
    ]);
    const csv = strFromU8(files.get('free-play/episodes.csv') as Uint8Array);
    expect(csv).toContain('12.25');
    expect(csv).toContain('task_b');
    expect(freePlayArchiveFiles(join(dir, 'missing')).size).toBe(0);
  });
});
