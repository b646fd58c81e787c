// The study config's check that a choice question has options (src/shared/study/config.ts): the
// issue names the question and the questionnaire, and only choice questions need options; the
// older check in paired.test.ts only asked for a failure, which other issues could also give
// (docs/MUTATION.md, study survivors).
import { describe, expect, it } from 'vitest';
import { defaultTexts, StudyConfigSchema } from '../../../src/shared/study/config';
import { defaultKind, kindModule } from '../../../src/shared/kinds/registry';

/** A study's default texts: its default kind's (SplatBench's). */
const DEFAULT_TEXTS = defaultTexts([kindModule(defaultKind()).participant]);

const base = { id: 's', name: 's', created: '', tasks: ['a'], practiceTask: 'p', protocol: 'matched', order: 'fixed', texts: DEFAULT_TEXTS };
const withQuestions = (demographic: unknown[]) => StudyConfigSchema.safeParse({ ...base, questionnaires: { demographic, postTask: [] } });

describe('choice questions need options', () => {
  it('refuses a choice question with no options, naming it and its questionnaire', () => {
    for (const q of [{ id: 'eyes', kind: 'choice', prompt: 'Eyes?' }, { id: 'eyes', kind: 'choice', prompt: 'Eyes?', options: [] }]) {
      const r = withQuestions([q]);
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => ({ path: i.path, message: i.message }))).toEqual([
        { path: ['questionnaires', 'demographic'], message: "choice question 'eyes' has no options" },
      ]);
    }
  });

  it('accepts a choice question with options and text or scale questions without', () => {
    const r = withQuestions([
      { id: 'eyes', kind: 'choice', prompt: 'Eyes?', options: ['normal', 'corrected'] },
      { id: 'notes', kind: 'text', prompt: 'Notes?' },
    ]);
    expect(r.error?.issues ?? []).toEqual([]);
    expect(r.success).toBe(true);
  });
});
