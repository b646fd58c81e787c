// Per-kind summaries (issue 24 item 4, docs/STUDIES.md "Per-kind summaries"): a study mixing
// sculpt, search and relation tasks has no summary, paired or participant row that pools kinds;
// every row names its measure and counts, and the same episodes give the same interval in every
// table (the seed comes from the episodes, not from the table or the row's label).
import { describe, expect, it } from 'vitest';
import { allTasksOf, intervalOf, statisticRows, summarize, type EpisodeResult } from '../../../src/shared/study/results';
import { pairedDifferences, participantSummaries } from '../../../src/shared/study/paired';

const MEASURE: Record<string, string> = { splatbench: 'SplatScore', search: 'accuracy %', relation: 'accuracy %' };
const FAMILY: Record<string, string> = { mug__sculpt: 'splatbench', room__search: 'search', park__relation: 'relation' };

function row(participant: string, taskId: string, score: number, model = false, run = 1): EpisodeResult {
  const family = FAMILY[taskId];
  return {
    source: model ? 'gpt' : 'human', kind: model ? 'model' : 'human', participant: model ? 'gpt' : participant, taskId, family, measure: MEASURE[family],
    practice: false, protocol: model ? 'agent' : 'matched', complete: true, score, psnr: null, ssim: null, iou: null, lpips: null, lpipsMissing: false,
    reward: null, calls: 3, renders: null, gaussians: null, seconds: 10, toolSeconds: 1, started: '2026-01-01T00:00:00Z',
    log: model ? `models/gpt/${taskId}__r${run}.jsonl` : `trajectories/${participant}/${taskId}.jsonl`,
  };
}

const people = ['P01', 'P02', 'P03', 'P04', 'P05'];
const episodes: EpisodeResult[] = [
  ...people.map((p, i) => row(p, 'mug__sculpt', -50 + 10 * i)),
  ...people.map((p, i) => row(p, 'room__search', i % 2 ? 100 : 0)),
  ...people.map((p, i) => row(p, 'park__relation', 25 * i)),
  ...[1, 2].flatMap((r) => [row('', 'mug__sculpt', -30 - r, true, r), row('', 'room__search', 100, true, r), row('', 'park__relation', 50, true, r)]),
];
const used = statisticRows(episodes);
const familiesOfTasks = (tasks: readonly string[]) => new Set(tasks.map((t) => FAMILY[t]));

describe('per-kind summaries', () => {
  it('never pools kinds in the summary: each row covers one family and names its measure', () => {
    const summary = summarize(episodes, { resamples: 200 });
    expect(summary.filter((r) => r.taskId.startsWith('(all')).map((r) => `${r.source}/${r.taskId}`)).toEqual([
      'human/(all relation tasks)', 'human/(all search tasks)', 'human/(all splatbench tasks)',
      'gpt/(all relation tasks)', 'gpt/(all search tasks)', 'gpt/(all splatbench tasks)',
    ]);
    for (const r of summary) {
      const mine = used.filter((e) => e.source === r.source && (r.taskId === allTasksOf(r.family) ? e.family === r.family : e.taskId === r.taskId));
      expect(familiesOfTasks(mine.map((e) => e.taskId))).toEqual(new Set([r.family]));
      expect(r.n).toBe(mine.length);
      expect(r.measure).toBe(MEASURE[r.family]);
      expect(r.mean).toBeCloseTo(mine.reduce((s, e) => s + (e.score as number), 0) / mine.length, 9);
    }
  });

  it('never pools kinds in the paired rows or the per-participant means', () => {
    const paired = pairedDifferences(episodes, { resamples: 200 });
    expect(paired.map((r) => `${r.family}/${r.taskId}/${r.tasks}`)).toEqual([
      'relation/park__relation/1', 'relation/(all relation tasks)/1', 'search/room__search/1', 'search/(all search tasks)/1',
      'splatbench/mug__sculpt/1', 'splatbench/(all splatbench tasks)/1',
    ]);
    for (const r of paired) expect(r.measure).toBe(MEASURE[r.family]);
    const parts = participantSummaries(episodes);
    expect(parts).toHaveLength(people.length * 3);
    for (const p of parts) {
      const mine = used.filter((e) => e.participant === p.participant && e.family === p.family);
      expect(p.tasks).toBe(mine.length);
      expect(p.meanScore).toBeCloseTo(mine.reduce((s, e) => s + (e.score as number), 0) / mine.length, 9);
      expect(p.measure).toBe(MEASURE[p.family]);
    }
  });

  it('refuses to pool two families into one interval', () => {
    expect(() => intervalOf(used)).toThrow(/cannot pool the scores of different task kinds/);
  });

  it('gives the same episodes the same interval whichever row or table shows them', () => {
    const summary = summarize(episodes, { resamples: 300 });
    const task = summary.find((r) => r.source === 'human' && r.taskId === 'park__relation');
    const family = summary.find((r) => r.source === 'human' && r.taskId === allTasksOf('relation'));
    // One task in the family: its row and the family's row hold the same five episodes.
    expect([family?.low, family?.high]).toEqual([task?.low, task?.high]);
    const again = intervalOf(used.filter((e) => e.source === 'human' && e.taskId === 'park__relation').reverse(), { resamples: 300 });
    expect([again.low, again.high]).toEqual([task?.low, task?.high]);
  });
});
