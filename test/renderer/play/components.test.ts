// Components of the episode view: the budget meter, the staged panel's commit plan (one call, or
// a stated multi-call choice), and submit asking before it ends the episode.
import { beforeEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import BudgetMeter from '../../../src/renderer/components/play/BudgetMeter.vue';
import StagedPanel from '../../../src/renderer/components/play/StagedPanel.vue';
import ToolBar from '../../../src/renderer/components/play/ToolBar.vue';
import { useStagingStore } from '../../../src/renderer/stores/staging';

const budgets = { gaussians: 74, maxGaussians: 300, callsLeft: 37, maxToolCalls: 40, rendersLeft: 15, maxRenders: 16 };

describe('episode view components', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows every budget and what the staged commit will cost', () => {
    const w = mount(BudgetMeter, { props: { budgets, pendingCalls: 1, pendingGaussians: 76 } });
    expect(w.get('[data-testid="budget-gaussians"]').text()).toBe('74/300 Gaussians → 76');
    expect(w.get('[data-testid="budget-calls"]').text()).toBe('calls left 37/40 (commit: −1)');
    expect(w.get('[data-testid="budget-renders"]').text()).toBe('renders left 15/16');
  });

  it("shows only the calls of an episode without SplatBench's Gaussians and renders (issue 39)", () => {
    const w = mount(BudgetMeter, { props: { budgets: { callsLeft: 3, maxToolCalls: 5 }, pendingCalls: 0, pendingGaussians: 0 } });
    expect(w.get('[data-testid="budget-calls"]').text()).toBe('calls left 3/5');
    expect(w.find('[data-testid="budget-gaussians"]').exists()).toBe(false);
    expect(w.find('[data-testid="budget-renders"]').exists()).toBe(false);
  });

  it('offers one commit for one kind of change and names the calls for a mixed change', async () => {
    const staging = useStagingStore();
    staging.reset([{ id: 0, pos: [0, 0, 0], scale: [0.1, 0.1, 0.1], quat: [1, 0, 0, 0], color: [1, 1, 1], opacity: 1 }], 1);
    const w = mount(StagedPanel, { props: { disabled: false, callsLeft: 10 } });
    staging.addPreset('sphere', [0, 0, 0.5], [1, 0, 0], null);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="commit"]').text()).toBe('Commit (1 call)');
    expect(w.find('[data-testid="multi-call"]').exists()).toBe(false);
    staging.editFields([0], { opacity: 0.5 }, 'opacity');
    await w.vm.$nextTick();
    expect(w.get('[data-testid="commit"]').text()).toBe('Commit as 2 calls');
    expect(w.get('[data-testid="multi-call"]').text()).toContain('edit_gaussians and add_gaussians');
    await w.get('[data-testid="commit"]').trigger('click');
    expect(w.emitted('commit')).toHaveLength(1);
  });

  it('asks before submitting and sends render_views with the chosen views', async () => {
    const views = ['V0', 'V1', 'V2', 'V3', 'V4'].map((name) => ({ name, camera: { width: 8, height: 8, fx: 8, fy: 8, cx: 4, cy: 4, world_to_camera: Array(16).fill(0) }, photo: 'data:image/png;base64,AA==' }));
    const w = mount(ToolBar, { props: { views, budgets, disabled: false, groups: [], dirty: true } });
    await w.get('[data-testid="tool-submit"]').trigger('click');
    expect(w.emitted('call')).toBeUndefined();
    expect(w.get('[data-testid="submit-confirm"]').text()).toContain('staged edits are not committed');
    await w.get('[data-testid="submit-yes"]').trigger('click');
    expect(w.emitted('call')).toEqual([['submit', {}]]);
    await w.get('[data-testid="tool-render-views"]').trigger('click');
    expect(w.emitted('call')?.[1]).toEqual(['render_views', { views: ['V0', 'V1', 'V2', 'V3'] }]);
  });

  it('says renders use the committed scene and offers "Commit, then render" at its full cost', async () => {
    const views = ['V0', 'V1'].map((name) => ({ name, camera: { width: 8, height: 8, fx: 8, fy: 8, cx: 4, cy: 4, world_to_camera: Array(16).fill(0) }, photo: 'data:image/png;base64,AA==' }));
    const w = mount(ToolBar, { props: { views, budgets, disabled: false, groups: ['arm'], dirty: true, staged: 3, commitCalls: 1 } });
    expect(w.get('[data-testid="committed-note"]').text()).toContain('committed scene: 3 staged edits not included');
    expect(w.get('[data-testid="commit-then-render"]').text()).toContain('2 calls');
    await w.get('[data-testid="rg-arm"]').setValue(true);
    await w.get('[data-testid="commit-then-render"]').trigger('click');
    expect(w.emitted('commitThen')).toEqual([['render_views', { groups: ['arm'] }]]);
  });

  it('in a one-shot task disables every tool here with the reason', () => {
    const views = ['V0'].map((name) => ({ name, camera: { width: 8, height: 8, fx: 8, fy: 8, cx: 4, cy: 4, world_to_camera: Array(16).fill(0) }, photo: 'data:image/png;base64,AA==' }));
    const w = mount(ToolBar, { props: { views, budgets: { ...budgets, callsLeft: 1, maxToolCalls: 1, rendersLeft: 0, maxRenders: 0 }, disabled: false, groups: [], dirty: true, staged: 2, commitCalls: 1, oneShot: true } });
    for (const b of w.findAll('button')) expect(b.attributes('disabled')).toBeDefined();
    expect(w.get('[data-testid="oneshot-reason"]').text()).toContain('Commit and finish');
    expect(w.find('[data-testid="commit-then-render"]').exists()).toBe(false);
  });
});
