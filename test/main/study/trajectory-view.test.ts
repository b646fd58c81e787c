// The one Replay view builder (src/main/study/trajectory-view.ts) behind study.trajectory and
// freeplay.trajectory: a person's log gives its own scores and reward; an imported model's view
// takes the lab's verdict (per-call curve, final score, reward) and shows the file's claim only as
// claimedScore; an ungraded model run has no end; the process log rides along when it exists.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { trajectoryView } from '../../../src/main/study/trajectory-view';
import type { ModelVerdict } from '../../../src/main/study/verify';
import type { LoadedTask } from '../../../src/main/tasks/load';
import { testTask } from '../env/fixtures';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-tview-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const t = '2026-01-02T00:00:00.000Z';
const metrics = (score: number) => ({ score, psnr: 20, ssim: 0.5, iou: 0.4, lpips: null });
const g = { p: [0, 0, 0], s: [0.3, 0.3, 0.3], q: [1, 0, 0, 0], c: [0.7, 0.5, 0.2], o: 0.9 };

function writeLog(name: string, opts: { end: boolean }): string {
  const lines: object[] = [
    { type: 'header', task: 'test__sculpt', protocol: 'free', player: 'ann', versions: {}, started: t },
    { step: 0, tool: 'reset', args: {}, text: 'start', t, ms: 0 },
    { step: 1, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], scale: 0.3, color: '#b38033' }] }, text: 'added 1', t, ms: 3, hidden: metrics(21.5), state: [g] },
    { step: 2, tool: 'submit', args: {}, text: 'done', t, ms: 1 },
  ];
  if (opts.end) lines.push({ type: 'end', reason: 'submit', score: 21.5, reward: 0.215, training_reward: 0.48, calls_used: 2, lpips_missing: true, t });
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

const verdict = (over: Partial<ModelVerdict>): ModelVerdict => ({
  score: 30, reward: 0.3, psnr: 21, ssim: 0.6, iou: 0.5, lpips: null, fileScore: 21.5, mismatch: true, calls: 2, complete: true, graded: t, ...over,
});

let task: LoadedTask;
beforeAll(async () => {
  task = await testTask('test__sculpt');
});

describe('trajectoryView', () => {
  it("shows a person's log with its own scores, reward and process log", () => {
    const path = writeLog('p.jsonl', { end: true });
    writeFileSync(path.replace(/\.jsonl$/, '.process.ndjson'), '{"t":5,"e":"select","d":{"id":1}}\nnot json\n');
    const v = trajectoryView(readTrajectory(path), task, { log: 'asked/p.jsonl', path, run: { kind: 'human' } });
    expect(v).toMatchObject({ log: 'asked/p.jsonl', taskId: 'test__sculpt', player: 'ann', protocol: 'free', started: t, truncated: false, claimedScore: null });
    expect(v.heldoutViews).toEqual(['H0', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7']);
    expect(v.steps.map((s) => [s.tool, s.score, s.graded, s.gaussians, s.error])).toEqual([
      ['reset', null, false, null, false],
      ['add_gaussians', 21.5, true, 1, false],
      ['submit', 21.5, false, null, false],
    ]);
    expect(v.end).toEqual({ reason: 'submit', score: 21.5, reward: 0.215, lpipsMissing: true, t });
    expect(v.process).toEqual([{ t: 5, e: 'select', d: { id: 1 } }]);
  });

  it('has no process key and no end for an unfinished log without a process file', () => {
    const path = writeLog('open.jsonl', { end: false });
    const v = trajectoryView(readTrajectory(path), task, { log: 'open.jsonl', path, run: { kind: 'human' } });
    expect(v.end).toBeNull();
    expect('process' in v).toBe(false);
  });

  it("takes a model run's scores and reward from the lab's verdict, the file's claim apart", () => {
    const path = writeLog('m.jsonl', { end: true });
    const run = { kind: 'model' as const, verdict: verdict({ curve: [{ step: 1, score: 28 }] }) };
    const v = trajectoryView(readTrajectory(path), task, { log: 'm.jsonl', path, run });
    expect(v.steps.map((s) => s.score)).toEqual([null, 28, 30]);
    expect(v.end).toMatchObject({ score: 30, reward: 0.3 });
    expect(v.claimedScore).toBe(21.5);
    const ungraded = trajectoryView(readTrajectory(path), task, { log: 'm.jsonl', path, run: { kind: 'model', verdict: null } });
    expect(ungraded.end).toBeNull();
    expect(ungraded.steps.map((s) => s.score)).toEqual([null, null, null]);
  });
});
