// The break screen of a relation block stops the episode's clock (issue 36 item 3): RelationTrial
// asks its parent to pause when the break shows and to resume before the next image, so a break
// is paused time in the log, never active time (test/main/kinds/relation/break-time.test.ts
// checks what the log then reports).
import { flushPromises, mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import RelationTrial from '../../../../src/renderer/kinds/relation/RelationTrial.vue';

const block = { fixation_ms: 0, deadline_ms: null, break_every: 1, confidence: false };

describe('a relation block\'s break', () => {
  it('pauses the clock while it shows and resumes it on Continue', async () => {
    const calls: boolean[] = [];
    const pauseClock = async (on: boolean) => {
      calls.push(on);
    };
    const w = mount(RelationTrial, { props: { image: 'data:image/png;base64,', question: 'q', trial: 2, trials: 3, practice: false, feedback: null, busy: false, done: false, block, pauseClock } });
    await flushPromises();
    expect(w.find('[data-testid="relation-break"]').exists()).toBe(true);
    expect(calls).toEqual([true]);
    await w.find('[data-testid="relation-break-continue"]').trigger('click');
    await flushPromises();
    expect(calls).toEqual([true, false]);
    expect(w.find('[data-testid="relation-break"]').exists()).toBe(false);
    // A second press does not resume twice.
    window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ' }));
    await flushPromises();
    expect(calls).toEqual([true, false]);
    w.unmount();
  });

  it('resumes when Continue comes before the pause\'s reply', async () => {
    // As RelationPlayView's pauseClock: the page sees its clock paused only once the reply is
    // back, and asks for what it does not see already.
    let paused = false;
    let reply = (): void => undefined;
    const requests: boolean[] = [];
    const pauseClock = (on: boolean): Promise<unknown> => {
      if (paused === on) return Promise.resolve();
      requests.push(on);
      return new Promise<void>((resolve) => {
        reply = () => {
          paused = on;
          resolve();
        };
      });
    };
    const w = mount(RelationTrial, { props: { image: 'data:image/png;base64,', question: 'q', trial: 2, trials: 3, practice: false, feedback: null, busy: false, done: false, block, pauseClock } });
    await flushPromises();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ' }));
    await flushPromises();
    reply(); // the pause's reply
    await flushPromises();
    reply(); // the resume's
    await flushPromises();
    expect(requests).toEqual([true, false]);
    expect(paused).toBe(false);
    w.unmount();
  });
});
