// Who a free-play row belongs to (src/main/study/free-play.ts): a Play-screen log is a person's
// (kind human) and never practice, with the header's player as participant; the per-kind
// summaries and the Results filters read these fields (docs/MUTATION.md, study survivors).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePlayResults } from '../../../src/main/study/free-play';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-free-who-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function log(header: Record<string, unknown>): string {
  const t = '2026-01-02T00:00:00.000Z';
  return [
    { type: 'header', protocol: 'free', versions: {}, started: t, ...header },
    { step: 0, tool: 'reset', args: {}, text: 'start', t, ms: 0 },
    { step: 1, tool: 'submit', args: {}, text: 'done', t, ms: 5, hidden: { score: 30 } },
    { type: 'end', reason: 'submit', score: 30, reward: 0.3, training_reward: 0.5, calls_used: 1, t },
  ].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

describe('free-play rows: who played', () => {
  it('is a human, not practice, the header naming the player', () => {
    writeFileSync(join(dir, 'a-0.jsonl'), log({ task: 'task_a', player: 'cy' }));
    writeFileSync(join(dir, 'b-1.jsonl'), log({ task: 'task_b', player: 'ann' }));
    expect(freePlayResults(dir).map((r) => [r.taskId, r.participant, r.kind, r.practice])).toEqual([
      ['task_a', 'cy', 'human', false],
      ['task_b', 'ann', 'human', false],
    ]);
  });
});
