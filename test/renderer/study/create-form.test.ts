// The New study form's time settings (#11 item 2): a limit in minutes becomes active seconds per
// scored task and "a break every N tasks" the breaks between scored tasks; a bad limit holds
// Create back with its reason.
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import StudyCreateForm from '../../../src/renderer/components/study/StudyCreateForm.vue';
import type { TaskSummary } from '../../../src/shared/task/schema';

const task = (id: string): TaskSummary => ({ id, kind: 'sculpt', object: 'o', budgets: { maxGaussians: 300, maxToolCalls: 40, maxRenders: 16 }, startsFromInit: false, referenceViews: [] });

describe('StudyCreateForm time settings', () => {
  it('sends the limit in seconds and the breaks between scored tasks', async () => {
    const w = mount(StudyCreateForm, { props: { tasks: ['p', 'a', 'b', 'c'].map(task), busy: false } });
    await w.get('[data-testid="study-name"]').setValue('Pilot');
    for (const id of ['a', 'b', 'c']) await w.get(`[data-testid="study-task-${id}"]`).setValue(true);
    await w.get('[data-testid="study-time-limit"]').setValue('abc');
    expect(w.get('[data-testid="study-create"]').attributes('disabled')).toBeDefined();
    await w.get('[data-testid="study-time-limit"]').setValue('2.5');
    await w.get('[data-testid="study-break-every"]').setValue(1);
    await w.get('[data-testid="study-break-seconds"]').setValue(30);
    await w.get('form').trigger('submit');
    const sent = w.emitted('create')?.[0]?.[0] as { taskTimeLimitS?: number; breaks?: unknown };
    expect(sent.taskTimeLimitS).toBe(150);
    expect(sent.breaks).toEqual([{ afterTask: 1, seconds: 30 }, { afterTask: 2, seconds: 30 }]);
  });
});
