// Results components: the score plot (a point per graded call, the axis fitted to the scores and
// including 0, the current-step marker) and the tables' formats (CI brackets, m:ss, dashes).
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import ScorePlot from '../../../src/renderer/components/results/ScorePlot.vue';
import SummaryTable from '../../../src/renderer/components/results/SummaryTable.vue';
import ResultsTable from '../../../src/renderer/components/results/ResultsTable.vue';
import type { TrajectoryStep } from '../../../src/shared/api/study';
import type { EpisodeResult } from '../../../src/shared/study/results';

const step = (n: number, score: number | null, graded: boolean): TrajectoryStep => ({ step: n, tool: 't', args: {}, text: '', t: '', ms: 0, score, graded, error: false, gaussians: null });

describe('ScorePlot', () => {
  it('draws graded points, a held line and ticks that include 0', async () => {
    const steps = [step(0, 0, true), step(1, 12, true), step(2, 12, false), step(3, 30, true)];
    const w = mount(ScorePlot, { props: { steps, current: 2 } });
    expect(w.findAll('circle')).toHaveLength(3);
    const d = w.get('[data-testid="score-line"]').attributes('d') as string;
    expect(d.startsWith('M')).toBe(true);
    expect(d.match(/H/g)).toHaveLength(3); // a flat segment to every later call with a score
    const ticks = w.findAll('.grid text').map((t) => t.text());
    expect(ticks).toContain('0');
    expect(ticks).toContain('30');
    expect(w.find('.marker').exists()).toBe(true);
    await w.findAll('circle')[1].trigger('click');
    expect(w.emitted('pick')).toEqual([[1]]);
  });

  it('keeps negative scores on the axis', () => {
    const w = mount(ScorePlot, { props: { steps: [step(0, 0, true), step(1, -40, true)], current: 0 } });
    expect(w.findAll('.grid text').map((t) => t.text())).toContain('-40');
  });
});

describe('results tables', () => {
  it('formats the summary: mean, CI and time', () => {
    const w = mount(SummaryTable, {
      props: {
        rows: [
          { source: 'human', family: 'splatbench', measure: 'SplatScore', taskId: 'a', n: 3, mean: 41.234, low: 30.04, high: 52.96, meanSeconds: 125, unit: 'participants', clusters: 6, warning: null },
          { source: 'human', family: 'splatbench', measure: 'SplatScore', taskId: '(all splatbench tasks)', n: 1, mean: 5, low: null, high: null, meanSeconds: null, unit: 'participants', clusters: 1, warning: 'only 1 participant: no interval' },
          { source: 'scripted:basic', family: 'splatbench', measure: 'SplatScore', taskId: 'a', n: 2, mean: 15, low: 15, high: 15, meanSeconds: 3, unit: 'runs', clusters: 2, warning: null },
        ],
        resamples: 2000,
      },
    });
    const rows = w.findAll('[data-testid="summary-row"]').map((r) => r.findAll('td').map((c) => c.text()));
    expect(rows[0]).toEqual(['human', 'a', 'SplatScore', '3', '6 participants', '41.2', '[30.0, 53.0]', '2:05']);
    expect(rows[1]).toEqual(['human', '(all splatbench tasks)', 'SplatScore', '1', '1 participant', '5.0', '— only 1 participant: no interval', '—']);
    // Two runs: the interval says in its cell that it rests on fewer than 5 (issue 36: [15.0, 15.0] looked exact).
    expect(rows[2][6]).toBe('[15.0, 15.0] (k=2<5)');
    expect(w.text()).toContain('2000 resamples');
  });

  it('marks practice and unfinished episodes and asks to replay a log', async () => {
    const base: EpisodeResult = { source: 'human', kind: 'human', participant: 'P01', taskId: 'a', family: 'splatbench', measure: 'SplatScore', practice: true, protocol: 'matched', complete: true, score: 10, psnr: 20, ssim: 0.5, iou: 0.4, lpips: null, lpipsMissing: true, reward: 0.1, calls: 3, renders: 1, gaussians: 2, seconds: 61, toolSeconds: 1, started: '', log: 'trajectories/P01/a.jsonl' };
    const w = mount(ResultsTable, { props: { rows: [base, { ...base, practice: false, complete: false, score: null, taskId: 'b', log: 'x' }], selected: null } });
    const rows = w.findAll('[data-testid="result-row"]');
    expect(rows[0].classes()).toContain('practice');
    expect(rows[0].text()).toContain('practice');
    expect(rows[1].text()).toContain('unfinished');
    expect(rows[1].get('[data-testid="result-score"]').text()).toBe('—');
    // A model's runs are told apart by their number (issue 36).
    const runs = mount(ResultsTable, { props: { rows: [1, 2].map((run) => ({ ...base, source: 'scripted:basic', kind: 'model' as const, participant: 'scripted:basic', practice: false, run, log: `models/m/a__r${run}.jsonl` })), selected: null } });
    expect(runs.findAll('[data-testid="episode-who"]').map((c) => c.text())).toEqual(['scripted:basic run 1', 'scripted:basic run 2']);
    await w.get('[data-testid="replay-P01-a"]').trigger('click');
    expect(w.emitted('replay')).toEqual([['trajectories/P01/a.jsonl']]);
  });
});
