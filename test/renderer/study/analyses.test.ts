// The analyses panel of Results: one chart per analysis (the shared SVG), each naming its unit
// and n, with SVG/PNG/CSV export buttons; a CSV export downloads the figure's own table.
import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import AnalysesPanel from '../../../src/renderer/components/results/AnalysesPanel.vue';
import { analyse, type AnalysisEpisode } from '../../../src/shared/analysis/report';

const row = (o: Partial<AnalysisEpisode>): AnalysisEpisode => ({
  group: 'participants', kind: 'human', cluster: 'P1', taskId: 'x__sculpt', object: 'x', taskKind: 'sculpt', practice: false, complete: true, score: 10, curve: [0, 5, 10], mirror: { iou: 0.6, mirroredIou: 0.4, drop: 0.2 }, headingErrors: null, headingParts: null, costUsd: null, seconds: 60, model: null, effort: null, ...o,
});

describe('AnalysesPanel', () => {
  it('shows every figure with its unit and n and exports CSV', async () => {
    const report = analyse([row({}), row({ cluster: 'P2', score: 30, source: 'photographed', mirror: { iou: 0.6, mirroredIou: 0.4, drop: 0.2, planeDeg: 30, ceiling: 0.25 } }), row({ group: 'm@high', kind: 'model', cluster: 'run 1', score: 20, costUsd: 0.2, model: 'm', effort: 'high' })], { resamples: 100 });
    const w = mount(AnalysesPanel, { props: { report, episodes: 3, studyId: 's1' } });
    const ids = w.findAll('figure').map((f) => f.attributes('data-testid'));
    expect(ids).toEqual(['figure-score-sculpt', 'figure-curve-sculpt', 'figure-best-final-sculpt', 'figure-score-by-source', 'figure-mirror', 'figure-oneshot-full', 'figure-cost-time', 'figure-effort']);
    const score = w.get('[data-testid="figure-score-sculpt"]');
    expect(score.find('svg').exists()).toBe(true);
    expect(score.text()).toContain('participants (n=2)');
    expect(score.text()).toContain('SplatScore (points');
    const saved: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      saved.push(b);
      return 'blob:x';
    });
    URL.revokeObjectURL = vi.fn();
    await w.get('[data-testid="export-mirror-csv"]').trigger('click');
    const csv = await saved[0].text();
    expect(csv).toContain('participants,all,2,0.6');
    expect(csv).toContain('participants,photographed,1,0.6,0.4,0.2,0.25');
    // Per object source: the pooled row and one per source present, with their n.
    expect(w.get('[data-testid="figure-score-by-source"]').text()).toContain('sculpt participants (photographed) (n=1)');
  });
});
