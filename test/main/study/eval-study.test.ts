// `splatlab eval --study` grades the runs it stores: each model run in the study's models/ folder
// gets the lab's verdict (strict replay plus the held-out grade), so Results scores it at once and
// no import is needed; a second call grades nothing again, and a run that does not replay gets no
// verdict and is named.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command as evalCommand } from '../../../src/main/cli/commands/eval';
import { Grader } from '../../../src/main/grader/grader';
import { createLabContext } from '../../../src/main/services/context';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { createLabServices } from '../../../src/main/services/lab';
import { studyResults } from '../../../src/main/study/results';
import { StudyStore } from '../../../src/main/study/store';
import { gradeStudyRuns } from '../../../src/main/study/verify';
import { buildTestTask } from '../../helpers/test-task';

let tasksDir: string;
let home: string;
let grader: Grader;
const oldHome = process.env.SPLATLAB_HOME;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'splatlab-eval-study-'));
  tasksDir = join(root, 'tasks');
  home = join(root, 'home');
  grader = await Grader.create({ lpipsDir: null });
  await buildTestTask(tasksDir, { size: 32, grader });
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', listTasks: async () => [], grader: async () => grader });
  const out = await dispatchCall(createLabServices(ctx).handlers, 'study.create', { name: 'Pilot', tasks: ['test__sculpt', 'test__reassembly'], practiceTask: 'test__oneshot', protocol: 'matched', order: 'fixed' });
  if (!out.ok) throw new Error(out.message);
  process.env.SPLATLAB_HOME = home;
}, 120_000);

afterAll(() => {
  if (oldHome === undefined) delete process.env.SPLATLAB_HOME;
  else process.env.SPLATLAB_HOME = oldHome;
});

describe('eval --study', () => {
  it('stores each run with the lab verdict, so Results has its score', async () => {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    expect(await evalCommand.run(['--model', 'scripted:basic', '--tasks', 'test__s*', '--study', 'pilot', '--tasks-folder', tasksDir, '--device', 'cpu', '--no-lpips'], io)).toBe(0);
    expect(lines.join('\n')).toMatch(/graded 1 runs for study pilot/);
    const store = new StudyStore(home);
    const runs = store.modelLogs('pilot');
    expect(runs).toHaveLength(1);
    expect(runs[0].verdict?.complete).toBe(true);
    expect(runs[0].verdict?.mismatch).toBe(false);
    const rows = studyResults(store, 'pilot').filter((r) => r.kind === 'model');
    expect(rows).toHaveLength(1);
    expect(rows[0].score).toBeCloseTo(runs[0].verdict?.score ?? Number.NaN, 9);
    expect(await gradeStudyRuns(store, 'pilot', tasksDir, grader)).toEqual({ graded: 0, problems: [] });
  }, 180_000);

  it('names a run that does not replay and leaves it without a verdict', async () => {
    const store = new StudyStore(home);
    const dir = store.resolveIn('pilot', 'models');
    const model = readdirSync(dir)[0];
    const rel = ['models', model, 'test__sculpt__r1.jsonl'].join('/');
    const verdict = store.resolveIn('pilot', rel.replace(/\.jsonl$/, '.verdict.json'));
    const broken = ['models', model, 'test__sculpt__r2.jsonl'].join('/');
    const text = readFileSync(store.resolveIn('pilot', rel), 'utf8').split('\n').filter(Boolean);
    // A step that claims a call the task never allowed, before the end record.
    const forged = JSON.stringify({ ...JSON.parse(text[2]), tool: 'no_such_tool' });
    writeFileSync(store.resolveIn('pilot', broken), `${[text[0], text[1], forged, ...text.slice(3)].join('\n')}\n`);
    const out = await gradeStudyRuns(store, 'pilot', tasksDir, grader);
    expect(existsSync(verdict)).toBe(true);
    expect(out.graded).toBe(0);
    expect(out.problems).toHaveLength(1);
    expect(out.problems[0]).toMatch(/test__sculpt__r2\.jsonl: /);
    expect(existsSync(store.resolveIn('pilot', broken.replace(/\.jsonl$/, '.verdict.json')))).toBe(false);
  }, 120_000);
});
