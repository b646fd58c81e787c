import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import TaskList from '../../src/renderer/components/TaskList.vue';
import type { TaskSummary } from '../../src/shared/task/schema';

describe('TaskList', () => {
  it('shows a friendly empty state naming the tasks folder', () => {
    const wrapper = mount(TaskList, { props: { tasks: [], tasksDir: '/data/tasks' } });
    expect(wrapper.find('[data-testid="tasks-empty"]').text()).toContain('/data/tasks');
  });

  it('groups tasks by object and shows their budgets', () => {
    const task = (id: string, object: string): TaskSummary =>
      ({ id, kind: 'sculpt', object, budgets: { maxGaussians: 300, maxToolCalls: 40, maxRenders: 16 }, startsFromInit: false, referenceViews: [] });
    const wrapper = mount(TaskList, { props: { tasks: [task('b__sculpt', 'b'), task('a__sculpt', 'a')], tasksDir: '' } });
    expect(wrapper.findAll('h4').map((h) => h.text())).toEqual(['a', 'b']);
    expect(wrapper.findAll('[data-testid="task-row"]')[0].text()).toContain('300 Gaussians');
  });

  it('puts each family of kinds in its own section, with a filter', async () => {
    const task = (id: string, kind: TaskSummary['kind'], object: string): TaskSummary =>
      ({ id, kind, object, budgets: { maxGaussians: kind === 'sculpt' ? 300 : 0, maxToolCalls: 25, maxRenders: 0 }, startsFromInit: false, referenceViews: [] });
    const tasks = [task('search__room-1__a', 'search', 'room-1'), task('robot__sculpt', 'sculpt', 'robot'), task('relation__city__x', 'relation', 'city'), task('search__room-2__b', 'search', 'room-2')];
    const wrapper = mount(TaskList, { props: { tasks, tasksDir: '' } });
    expect(wrapper.findAll('section.family h3').map((h) => h.text())).toEqual(['SplatBench 1 task', 'View search 2 tasks', 'Spatial relations 1 task']);
    expect(wrapper.find('[data-testid="tasks-search"]').findAll('h4').map((h) => h.text())).toEqual(['room-1', 'room-2']);
    await wrapper.find('[data-testid="family-search"]').trigger('click');
    expect(wrapper.findAll('[data-testid="task-row"]').map((r) => r.find('.id').text())).toEqual(['search__room-1__a', 'search__room-2__b']);
    await wrapper.find('[data-testid="family-all"]').trigger('click');
    expect(wrapper.findAll('[data-testid="task-row"]')).toHaveLength(4);
  });
});
