// The New study form's time settings (#11 item 2): a limit in minutes becomes active seconds per
// scored task and "a break every N tasks" the breaks between scored tasks; a bad limit holds
// Create back with its reason. The checks (issue 24 item 6) are typed one a line, the correct
// option starred, and sent as the study's `checks`.
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

  it('sends the checks typed one a line, the correct option starred; a line without a starred option holds Create back', async () => {
    const w = mount(StudyCreateForm, { props: { tasks: ['p', 'a', 'b'].map(task), busy: false } });
    await w.get('[data-testid="study-name"]').setValue('Checked');
    for (const id of ['a', 'b']) await w.get(`[data-testid="study-task-${id}"]`).setValue(true);
    await w.get('[data-testid="study-check-comprehension"]').setValue('What does a Commit cost? | nothing | one call');
    expect(w.text()).toContain("comprehension line 1: mark exactly one option as correct with a leading '*'");
    expect(w.get('[data-testid="study-create"]').attributes('disabled')).toBeDefined();
    await w.get('[data-testid="study-check-comprehension"]').setValue('What does a Commit cost? | nothing | *one call\nWill you see your score? | yes | *no');
    await w.get('[data-testid="study-check-attention"]').setValue('3 | Choose purple. | red | *purple');
    expect(w.text()).toContain('follows task 3, but the study has 2 scored task(s)');
    await w.get('[data-testid="study-check-attention"]').setValue('1 | Choose purple. | red | *purple');
    await w.get('[data-testid="study-check-rule"]').setValue('0');
    await w.get('form').trigger('submit');
    const sent = w.emitted('create')?.[0]?.[0] as { checks?: unknown };
    expect(sent.checks).toEqual({
      comprehension: { questions: [{ id: 'c1', prompt: 'What does a Commit cost?', options: ['nothing', 'one call'], correct: 'one call' }, { id: 'c2', prompt: 'Will you see your score?', options: ['yes', 'no'], correct: 'no' }] },
      attention: [{ id: 'a1', prompt: 'Choose purple.', options: ['red', 'purple'], correct: 'purple', afterTask: 1 }],
      maxAttentionFailures: 0,
    });
  });
});
