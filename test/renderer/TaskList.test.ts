import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import TaskList from '../../src/renderer/components/TaskList.vue';
import type { TaskSummary } from '../../src/shared/task/schema';
import type { TaskListItem } from '../../src/shared/task/registry';

const FAMILY: Record<string, string> = { sculpt: 'splatbench', reassembly: 'splatbench', oneshot: 'splatbench', search: 'search', relation: 'relation' };
/** A registry row around a summary (the entry as `splatlab tasks --json` would list it). */
const row = (s: TaskSummary, split: TaskListItem['entry']['split'] = 'test'): TaskListItem => ({
  ...s,
  entry: { id: s.id, kind: s.kind, family: FAMILY[s.kind], budgets: { max_tool_calls: s.budgets.maxToolCalls, ...(s.kind === 'search' || s.kind === 'relation' ? {} : { max_gaussians: s.budgets.maxGaussians, max_renders: s.budgets.maxRenders }) }, split, source: `objects/${s.object}`, content_hash: 'ab'.repeat(32) },
});

describe('TaskList', () => {
  it('shows a friendly empty state naming the tasks folder', () => {
    const wrapper = mount(TaskList, { props: { tasks: [], tasksDir: '/data/tasks' } });
    expect(wrapper.find('[data-testid="tasks-empty"]').text()).toContain('/data/tasks');
  });

  it('groups tasks by object and shows their budgets', () => {
    const task = (id: string, object: string): TaskListItem =>
      row({ id, kind: 'sculpt', object, budgets: { maxGaussians: 300, maxToolCalls: 40, maxRenders: 16 }, startsFromInit: false, referenceViews: [] }, object === 'a' ? 'practice' : 'test');
    const wrapper = mount(TaskList, { props: { tasks: [task('b__sculpt', 'b'), task('a__sculpt', 'a')], tasksDir: '' } });
    expect(wrapper.findAll('h4').map((h) => h.text())).toEqual(['a', 'b']);
    const first = wrapper.findAll('[data-testid="task-row"]')[0];
    expect(first.text()).toContain('300 Gaussians');
    // The registry's metadata: split, source and the content hash's first 12 digits.
    expect(first.find('[data-testid="task-split"]').text()).toBe('practice');
    expect(first.text()).toContain('objects/a');
    expect(first.find('[data-testid="task-hash"]').text()).toBe('ab'.repeat(6));
    expect(JSON.parse(first.attributes('data-entry') as string)).toEqual(task('a__sculpt', 'a').entry);
  });

  it('puts each family of kinds in its own section, with a filter', async () => {
    const task = (id: string, kind: TaskSummary['kind'], object: string): TaskListItem =>
      row({ id, kind, object, budgets: kind === 'sculpt' ? { maxGaussians: 300, maxToolCalls: 25, maxRenders: 0 } : { maxToolCalls: 25 }, startsFromInit: false, referenceViews: [] });
    const tasks = [task('search__room-1__a', 'search', 'room-1'), task('robot__sculpt', 'sculpt', 'robot'), task('relation__city__x', 'relation', 'city'), task('search__room-2__b', 'search', 'room-2')];
    const wrapper = mount(TaskList, { props: { tasks, tasksDir: '' } });
    expect(wrapper.findAll('section.family h3').map((h) => h.text())).toEqual(['SplatBench 1 task', 'View search 2 tasks', 'Spatial relations 1 task']);
    expect(wrapper.find('[data-testid="tasks-search"]').findAll('h4').map((h) => h.text())).toEqual(['room-1', 'room-2']);
    await wrapper.find('[data-testid="family-search"]').trigger('click');
    expect(wrapper.findAll('[data-testid="task-row"]').map((r) => r.find('.id').text())).toEqual(['search__room-1__a', 'search__room-2__b']);
    await wrapper.find('[data-testid="family-all"]').trigger('click');
    expect(wrapper.findAll('[data-testid="task-row"]')).toHaveLength(4);
    // A SplatBench task shows its Gaussians and renders (0 renders included); other kinds their calls only.
    const text = (id: string): string => wrapper.findAll('[data-testid="task-row"]').find((r) => r.find('.id').text() === id)!.text();
    expect(text('robot__sculpt')).toContain('300 Gaussians · 25 calls · 0 renders');
    expect(text('search__room-1__a')).not.toMatch(/Gaussian|render/);
  });
});
