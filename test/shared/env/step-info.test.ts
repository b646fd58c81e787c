// StepInfo: every step's outcome as data (src/shared/env/step-info.ts, docs/DESIGN.md
// "Structured steps"): ok, charged, the step number, ids created, end reason and budgets, and the
// one replay (src/shared/kinds/replay.ts) recovering the same infos from a log.
import { describe, expect, it } from 'vitest';
import { Episode } from '../../../src/shared/kinds/splatbench/episode';
import { type EpisodeConfig } from '../../../src/shared/kinds/splatbench/episode';
import { replayAll, ReplayError } from '../../../src/shared/kinds/replay';
import { StepInfoSchema } from '../../../src/shared/env/step-info';
import type { StepRecord } from '../../../src/shared/env/trajectory-schema';

const config: EpisodeConfig = { kind: 'sculpt', maxGaussians: 10, maxToolCalls: 4, maxRenders: 1, referenceViews: [{ name: 'V0', azimuth: 0, elevation: 20 }] };
const add = (n: number): { tool: string; args: unknown } => ({ tool: 'add_gaussians', args: { gaussians: Array.from({ length: n }, () => ({ pos: [0, 0, 0], color: '#ff0000' })) } });

describe('StepInfo', () => {
  it('numbers charged calls, lists created ids, reports refusals and the end as data', () => {
    const ep = new Episode(config);
    const a = ep.step(add(2)).info;
    expect(a).toMatchObject({ ok: true, charged: true, step: 1, changed: true, ids: [0, 1], nextId: 2, done: false, endReason: null });
    expect(StepInfoSchema.parse(a)).toEqual(a);
    const bad = ep.step({ tool: 'add_gaussians', args: { gaussians: [{ pos: [9, 0, 0], color: '#ff0000' }] } }).info;
    expect(bad).toMatchObject({ ok: false, charged: true, step: 2, changed: false, ids: [], nextId: 2 });
    const del = ep.step({ tool: 'delete_gaussians', args: { ids: [1] } }).info;
    expect(del).toMatchObject({ ok: true, step: 3, ids: [], nextId: 2, budgets: { gaussians: 1, callsLeft: 1 } });
    const last = ep.step(add(1)).info;
    expect(last).toMatchObject({ ok: true, step: 4, ids: [2], done: true, endReason: 'auto', budgets: { callsLeft: 0 } });
    const after = ep.step(add(1)).info;
    expect(after).toMatchObject({ ok: false, charged: false, step: null, ids: [], done: true });
  });

  it('the one replay reproduces every info from the records and refuses a log out of order', () => {
    const live = new Episode(config);
    const calls = [add(1), { tool: 'nope', args: {} }, add(2)];
    const records: StepRecord[] = [{ step: 0, tool: 'reset', args: {}, text: '', t: '', ms: 0 }];
    const infos = calls.map((c, i) => {
      const r = live.step(c);
      // Logged as the env logs a step: its body, then the footer line (the strict replay checks both).
      records.push({ step: i + 1, tool: c.tool, args: c.args, text: r.body ? `${r.body}\n${r.footer}` : r.footer, t: '', ms: 0 });
      return r.info;
    });
    const replayed = replayAll(new Episode(config), records, { strict: true });
    expect(replayed.map((r) => r.result.info)).toEqual(infos);
    expect(replayAll(new Episode(config), records, { upTo: 1 })).toHaveLength(1);
    const swapped = [records[0], records[2], records[1], records[3]];
    expect(() => replayAll(new Episode(config), swapped, { strict: true })).toThrow(ReplayError);
  });
});
