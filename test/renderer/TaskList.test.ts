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
    expect(wrapper.findAll('h3').map((h) => h.text())).toEqual(['a', 'b']);
    expect(wrapper.findAll('[data-testid="task-row"]')[0].text()).toContain('300 Gaussians');
  });
});
