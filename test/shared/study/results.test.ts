// Study results: summary grouping (practice and unfinished excluded, humans before models, an
// all-tasks row per source), seeded intervals, CSV columns; config helpers (ids, slugs, schema).
import { describe, expect, it } from 'vitest';
import { episodesCsv, summarize, summaryCsv, type EpisodeResult } from '../../../src/shared/study/results';
import { defaultTexts, StudyConfigSchema, nextParticipantId, studySlug } from '../../../src/shared/study/config';
import { defaultKind, kindModule } from '../../../src/shared/kinds/registry';

/** A study's default texts: its default kind's (SplatBench's). */
const DEFAULT_TEXTS = defaultTexts([kindModule(defaultKind()).participant]);

function row(over: Partial<EpisodeResult>): EpisodeResult {
  return { source: 'human', kind: 'human', participant: 'P01', taskId: 'a', family: 'splatbench', measure: 'SplatScore', practice: false, protocol: 'matched', complete: true, score: 50, psnr: 20, ssim: 0.5, iou: 0.5, lpips: null, lpipsMissing: true, reward: 0.5, calls: 4, renders: 1, gaussians: 3, seconds: 100, toolSeconds: 2, started: '2025-01-01T00:00:00Z', log: 'l', ...over };
}

describe('summarize', () => {
  const rows = [
    row({ participant: 'P01', score: 40 }),
    row({ participant: 'P02', score: 60, seconds: 200 }),
    row({ participant: 'P03', score: 80 }),
    row({ participant: 'P01', taskId: 'b', score: 10 }),
    row({ participant: 'P01', taskId: 'p', practice: true, score: 99 }),
    row({ participant: 'P04', complete: false, score: null }),
    row({ source: 'gpt', kind: 'model', participant: 'gpt', score: 20 }),
  ];

  it('groups by source and task with an all-tasks row, excluding practice and unfinished', () => {
    const s = summarize(rows);
    expect(s.map((r) => `${r.source}/${r.taskId}/${r.n}`)).toEqual(['human/a/3', 'human/b/1', 'human/(all splatbench tasks)/4', 'gpt/a/1', 'gpt/(all splatbench tasks)/1']);
    expect(s[0].mean).toBeCloseTo(60, 12);
    expect(s[0].meanSeconds).toBeCloseTo(400 / 3, 12);
    expect(s[0].low as number).toBeGreaterThanOrEqual(40);
    expect(s[0].high as number).toBeLessThanOrEqual(80);
    expect(s[0].low as number).toBeLessThan(60);
    expect(s[1]).toMatchObject({ mean: 10, low: null, high: null });
    expect(s[2].mean).toBeCloseTo(47.5, 12);
  });

  it('resamples participants, not episodes, names the unit and warns under five units', () => {
    // P01 has four episodes of one task, P02 one: resampling episodes would treat five
    // independent values; the clustered interval resamples the two participants.
    const clustered = [40, 42, 41, 43].map((score) => row({ participant: 'P01', score })).concat([row({ participant: 'P02', score: 90 })]);
    const [a] = summarize(clustered, { seed: 3, resamples: 4000 });
    expect(a).toMatchObject({ n: 5, clusters: 2, unit: 'participants' });
    // Independent computation: a resample holds P01's mean (41.5, weight 4) or P02's (90, weight
    // 1) in each of two draws; the pooled mean is one of 41.5, (166+90)/5 = 51.2 or 90.
    expect([41.5, 51.2, 90].some((v) => Math.abs((a.low as number) - v) < 1e-9)).toBe(true);
    expect([41.5, 51.2, 90].some((v) => Math.abs((a.high as number) - v) < 1e-9)).toBe(true);
    expect(a.low).toBeCloseTo(41.5, 9);
    expect(a.high).toBeCloseTo(90, 9);
    expect(a.warning).toMatch(/only 2 participants: too few/);
    const many = summarize(['P01', 'P02', 'P03', 'P04', 'P05'].map((participant, i) => row({ participant, score: 10 * i })));
    expect(many[0]).toMatchObject({ clusters: 5, warning: null });
    const model = summarize([row({ source: 'gpt', kind: 'model', participant: 'gpt', log: 'models/gpt/a__r1.jsonl' }), row({ source: 'gpt', kind: 'model', participant: 'gpt', log: 'models/gpt/a__r2.jsonl' })]);
    expect(model[0]).toMatchObject({ unit: 'runs', clusters: 2 });
  });

  it('is reproducible', () => {
    expect(summarize(rows)).toEqual(summarize(rows));
  });

  it('writes both tables as CSV', () => {
    const e = episodesCsv([row({ participant: 'P01', taskId: 'x,y' })]).split('\r\n');
    // The 20 original columns, the episode clock's paused, down and interruption fields, the kind family and its measure.
    expect(e[0].split(',')).toHaveLength(25);
    expect(e[0].split(',')).toEqual(expect.arrayContaining(['seconds', 'paused_seconds', 'down_seconds', 'interruptions']));
    expect(e[1]).toContain('"x,y"');
    const s = summaryCsv(summarize(rows)).split('\r\n');
    expect(s[0]).toBe('source,task,kind_family,measure,n,mean_score,ci95_low,ci95_high,mean_seconds,ci_unit,n_units,warning,lpips_missing');
    expect(s[2]).toBe('human,b,splatbench,SplatScore,1,10,,,100,participants,1,only 1 participant: no interval,1');
  });
});

describe('study config helpers', () => {
  it('numbers participants P01.. and keeps counting past gaps', () => {
    expect(nextParticipantId([])).toBe('P01');
    expect(nextParticipantId(['P01', 'P03'])).toBe('P04');
    expect(nextParticipantId(['P99'])).toBe('P100');
  });

  it('makes unique slugs from names', () => {
    expect(studySlug('Pilot A (May)', new Set())).toBe('pilot-a-may');
    expect(studySlug('Pilot A (May)', new Set(['pilot-a-may', 'pilot-a-may-2']))).toBe('pilot-a-may-3');
    expect(studySlug('¿?', new Set())).toBe('study');
  });

  it('refuses a practice task among the scored ones and duplicate tasks', () => {
    const base = { id: 's', name: 'S', created: '', tasks: ['a', 'b'], practiceTask: 'p', protocol: 'matched', order: 'fixed', texts: DEFAULT_TEXTS };
    expect(StudyConfigSchema.safeParse(base).success).toBe(true);
    expect(StudyConfigSchema.safeParse({ ...base, practiceTask: 'a' }).success).toBe(false);
    expect(StudyConfigSchema.safeParse({ ...base, tasks: ['a', 'a'] }).success).toBe(false);
    expect(StudyConfigSchema.safeParse({ ...base, participantName: 'Alice' }).success).toBe(false);
  });
});
