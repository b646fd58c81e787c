// Study screens' pieces: the questionnaire (required questions hold Continue back; optional
// ones left empty are not sent; a scale sends a number), the withdrawal form (no reason, no
// withdrawal; who withdraws), and the humans-vs-models table (signed differences, warnings).
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import Questionnaire from '../../../src/renderer/components/study/Questionnaire.vue';
import WithdrawControl from '../../../src/renderer/components/study/WithdrawControl.vue';
import PairedTable from '../../../src/renderer/components/results/PairedTable.vue';
import { DEFAULT_QUESTIONNAIRES, type Question } from '../../../src/shared/study/config';

describe('Questionnaire', () => {
  it('sends only what was answered, scales as numbers, and waits for required questions', async () => {
    const questions: Question[] = [{ ...DEFAULT_QUESTIONNAIRES.demographic[0], required: true }, ...DEFAULT_QUESTIONNAIRES.postTask];
    const w = mount(Questionnaire, { props: { questions, busy: false, title: 'Q' } });
    const send = w.get('[data-testid="questionnaire-send"]');
    expect(send.attributes('disabled')).toBeDefined();
    await w.get('[data-testid="question-vision"] input[value="normal"]').setValue(true);
    await w.findAll('[data-testid="question-confidence"] input')[4].setValue(true);
    expect(send.attributes('disabled')).toBeUndefined();
    await w.get('form').trigger('submit');
    expect(w.emitted('submit')?.[0]).toEqual([{ vision: 'normal', confidence: 5 }]);
  });
});

describe('WithdrawControl', () => {
  it('needs a reason and says who withdraws', async () => {
    const w = mount(WithdrawControl, { props: { busy: false } });
    await w.get('[data-testid="session-withdraw"]').trigger('click');
    expect(w.get('[data-testid="withdraw-confirm"]').attributes('disabled')).toBeDefined();
    await w.get('[data-testid="withdraw-reason"]').setValue('  tired  ');
    await w.get('[data-testid="withdraw-by-experimenter"]').setValue(true);
    await w.get('form').trigger('submit');
    expect(w.emitted('withdraw')?.[0]).toEqual(['tired', 'experimenter']);
  });
});

describe('PairedTable', () => {
  it('shows signed differences, a zero as none, counts and warnings', () => {
    const base = { model: 'm', family: 'splatbench', measure: 'SplatScore', humanMean: 50, modelMean: 40, low: 2, high: 18, participants: 6, runs: 2, tasks: 1, warning: null };
    const w = mount(PairedTable, {
      props: {
        rows: [
          { ...base, taskId: 'a', difference: 10 },
          { ...base, taskId: 'b', difference: -0.01, warning: 'only 1 run of the model: the interval reflects the participants only' },
          { ...base, taskId: '(all splatbench tasks)', difference: -3.26, tasks: 2 },
        ],
        resamples: 2000,
      },
    });
    const rows = w.findAll('[data-testid="paired-row"]').map((r) => r.findAll('td').map((c) => c.text()));
    expect(rows[0]).toEqual(['m', 'a', 'SplatScore', '50.0', '40.0', '+10.0', '[2.0, 18.0]', '6 / 2']);
    expect(rows[1][5]).toBe('0.0');
    expect(rows[1][6]).toContain('only 1 run');
    expect(rows[2].slice(1, 6)).toEqual(['(all splatbench tasks) (2)', 'SplatScore', '50.0', '40.0', '-3.3']);
  });
});
