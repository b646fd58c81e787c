// Render calls that name an unknown group are refused with the group named and nothing rendered,
// and a call after the end reports `episode_over` without a change; both survived the env mutation
// run before this test (docs/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { Episode } from '../../../src/shared/kinds/splatbench/episode';
import { type EpisodeConfig } from '../../../src/shared/kinds/splatbench/episode';

const config: EpisodeConfig = { kind: 'sculpt', maxGaussians: 10, maxToolCalls: 6, maxRenders: 3, referenceViews: [{ name: 'V0', azimuth: 0, elevation: 20 }] };
const withGroup = (): Episode => {
  const ep = new Episode(config);
  ep.step({ tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#ff0000', group: 'top' }] } });
  return ep;
};
const refusal = "ERROR: nothing was rendered. unknown group 'nope' (groups: top)";

describe('render refusals', () => {
  it('refuse an unknown group in render_views and render_angle, and render a known one', () => {
    const ep = withGroup();
    for (const call of [{ tool: 'render_views', args: { groups: ['nope'] } }, { tool: 'render_angle', args: { azimuth: 10, elevation: 0, groups: ['nope'] } }]) {
      const r = ep.step(call);
      expect(r).toMatchObject({ ok: false, body: refusal });
      expect(r.info.outcome).toEqual({ status: 'refused', code: 'rejected' });
      expect(r).not.toHaveProperty('image');
    }
    const ok = ep.step({ tool: 'render_views', args: { groups: ['top'] } });
    expect(ok).toMatchObject({ ok: true, image: { kind: 'views', views: [0], groups: ['top'] } });
  });

  it('answer a call after the end as episode_over, uncharged and unchanged', () => {
    const ep = new Episode({ ...config, maxToolCalls: 1 });
    ep.step({ tool: 'submit', args: {} });
    const info = ep.step({ tool: 'describe_groups', args: {} }).info;
    expect(info).toMatchObject({ ok: false, charged: false, changed: false, step: null, done: true, outcome: { status: 'refused', code: 'episode_over' } });
  });
});
