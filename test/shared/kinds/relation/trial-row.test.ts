// The API's relation trial row is derived from the end record's trial (src/shared/kinds/relation/
// api.ts, kind.ts; issue 23, one model per concept): every trial field is the end record's own
// schema under its camelCase name, so the two cannot drift; the row's fields and order (the
// JSON Schema in docs/API.md, checked by test/main/cli/docs.test.ts) stay as the API had them.
import { describe, expect, it } from 'vitest';
import { RelationTrialRowSchema } from '../../../../src/shared/kinds/relation/api';
import { RelationTrialResultSchema } from '../../../../src/shared/kinds/relation/kind';

const RENAMED = { rtMs: 'rt_ms', timedOut: 'timed_out', serverMs: 'server_ms' } as const;
const OWN = ['who', 'answerer', 'taskId'];

describe('RelationTrialRowSchema', () => {
  const row = RelationTrialRowSchema.shape as Record<string, unknown>;
  const result = RelationTrialResultSchema.shape as Record<string, unknown>;

  it("keeps the API's fields in the API's order", () => {
    expect(Object.keys(row)).toEqual([
      'who', 'answerer', 'taskId', 'trial', 'environment', 'triple', 'task', 'truth', 'answer', 'correct',
      'rtMs', 'confidence', 'catch', 'timedOut', 'unparsed', 'serverMs',
    ]);
  });

  it("declares no trial field of its own: each is the end record's schema", () => {
    for (const key of Object.keys(row).filter((k) => !OWN.includes(k))) {
      const from = RENAMED[key as keyof typeof RENAMED] ?? key;
      expect(row[key], key).toBe(result[from]);
    }
  });

  it('parses a row and refuses the end record-only parameters file', () => {
    const r = { who: 'human', answerer: 'P01', taskId: 'relation__a', trial: 1, environment: 'forest', triple: 'tent-bear', task: 'ego', truth: 'left', answer: null, correct: false, rtMs: null, confidence: null, timedOut: true };
    expect(RelationTrialRowSchema.parse(r)).toEqual(r);
    expect(RelationTrialRowSchema.safeParse({ ...r, params: 'p1.json' }).success).toBe(false);
    expect(RelationTrialRowSchema.safeParse({ ...r, trial: 0 }).success).toBe(false);
  });
});
