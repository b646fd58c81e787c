// `splatlab report` for every kind (issue 37 item 4): search and relation logs produce their own
// metrics through their main modules (MainKindModule.report): search accuracy, success, steps,
// path length and collisions per group and question family; relation accuracy per task,
// environment and triple, with the practice block and catch trials left out. Logs are played
// through the kinds' own envs (no grader, no renders), models as an eval results folder with meta.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { command as reportCommand } from '../../../src/main/cli/commands/report';
import { loadAnyTask } from '../../../src/main/kinds/registry';
import { relationMain, type RelationTask } from '../../../src/main/kinds/relation/kind';
import { repoRoot } from '../../../src/main/io/data-dir';
import { writeMeta } from '../../../src/main/models/meta';
import { RELATION_CLASSES } from '../../../src/shared/kinds/relation/labels';
import { facing, playLog, searchTasksDir } from './search/study-fixture';

const io = (lines: string[]) => ({ out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) });

/** A model run's meta beside its log, as `splatlab eval` writes it (only the group and run matter here). */
function meta(log: string, player: string, run: number): void {
  writeMeta(log.replace(/\.jsonl$/, '.meta.json'), {
    job_id: `j${run}`, task: 't', run, provider: 'scripted', model: 'basic', model_version: null, effort: null, temperature: null, player,
    status: 'done', error: null, turns: 1, idle_turns: 0, invalid_calls: 0, auto_submitted: false, input_tokens: 0, output_tokens: 0,
    cost_usd: null, retries: 0, wall_s: 1, attempts: 1, started: new Date().toISOString(), finished: new Date().toISOString(),
  });
}

function csv(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, 'utf8').trim().split(/\r?\n/);
  const names = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])));
}

describe('splatlab report for every kind', () => {
  it('writes the search metrics per model and question family', async () => {
    const tasksDir = searchTasksDir();
    const results = mkdtempSync(join(tmpdir(), 'splatlab-report-search-'));
    const folder = join(results, 'scripted-basic__effort=default_temp=default');
    mkdirSync(folder, { recursive: true });
    // Run 1 answers both questions right, run 2 answers the colour question wrong.
    const plays: [string, number, string][] = [['search__t1', 1, 'red'], ['search__t2', 1, 'yes'], ['search__t1', 2, 'blue'], ['search__t2', 2, 'yes']];
    for (const [task, run, answer] of plays) {
      const log = join(folder, `${task}__r${run}.jsonl`);
      await playLog(tasksDir, task, log, facing(answer), 'scripted:basic');
      meta(log, 'scripted:basic', run);
    }
    const out = mkdtempSync(join(tmpdir(), 'splatlab-report-out-'));
    const said: string[] = [];
    expect(await reportCommand.run(['--results', results, '--tasks', tasksDir, '--out', out, '--no-mirror', '--no-png'], io(said))).toBe(0);
    expect(said.join('\n')).toMatch(/search: 4 episodes, 2 tables/);
    const rows = csv(join(out, 'search-metrics.csv'));
    const all = rows.find((r) => r.group === 'scripted:basic' && r.question_family === 'all');
    expect(all).toMatchObject({ who: 'model', n: '4', answerers: '2', accuracy_mean: '75', success_mean: '1', collision_mean: '0' });
    expect(Number(all?.steps_mean)).toBeGreaterThan(0);
    expect(rows.find((r) => r.question_family === 'color')).toMatchObject({ n: '2', accuracy_mean: '50' });
    expect(rows.find((r) => r.question_family === 'size')).toMatchObject({ n: '2', accuracy_mean: '100' });
    expect(csv(join(out, 'search-episodes.csv'))).toHaveLength(4);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { kinds: Record<string, { episodes: number }>; scores: unknown[] };
    expect(report.kinds.search.episodes).toBe(4);
    expect(report.kinds.relation).toBeUndefined();
    expect(report.scores).toEqual([]);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('search-metrics.csv');
  });

  it('writes the relation accuracies per group, task and environment, leaving out practice', async () => {
    const tasksDir = join(repoRoot(), 'tasks');
    const results = mkdtempSync(join(tmpdir(), 'splatlab-report-relation-'));
    const folder = join(results, 'scripted-basic');
    mkdirSync(folder, { recursive: true });
    const wrong = (c: string) => RELATION_CLASSES.find((x) => x !== c) as string;
    // Three scored trials (two right, one wrong) and the practice block (left out).
    const plays: [string, boolean][] = [['relation__forest__tent-bear__allo', true], ['relation__forest__tent-bear__ego', true], ['relation__desert__cactus-camel__allo', false], ['relation__practice', true]];
    for (const [id, right] of plays) {
      const task = (await loadAnyTask(id, { tasksDir })) as RelationTask;
      const log = join(folder, `${id}__r1.jsonl`);
      const { env } = await relationMain.reset(task, { grader: null as never, protocol: 'agent', player: 'scripted:basic', log });
      for (const p of task.params) if (!env.done) await env.step({ tool: 'answer', args: { relation: right ? p.relation.label : wrong(p.relation.label) } });
      await env.close();
      meta(log, 'scripted:basic', 1);
    }
    const out = mkdtempSync(join(tmpdir(), 'splatlab-report-out-'));
    const said: string[] = [];
    expect(await reportCommand.run(['--results', results, '--tasks', tasksDir, '--out', out, '--no-mirror', '--no-png'], io(said))).toBe(0);
    expect(said.join('\n')).toMatch(/relation: 3 episodes, 2 tables/);
    const rows = csv(join(out, 'relation-accuracy.csv'));
    expect(rows.find((r) => r.cell === 'all')).toMatchObject({ group: 'scripted:basic', who: 'model', n_trials: '3', correct: '2', chance: '0.25' });
    expect(Number(rows.find((r) => r.cell === 'all')?.accuracy)).toBeCloseTo(2 / 3, 6);
    expect(rows.find((r) => r.cell === 'ego')).toMatchObject({ n_trials: '1', correct: '1' });
    expect(rows.find((r) => r.cell === 'desert')).toMatchObject({ n_trials: '1', correct: '0' });
    expect(csv(join(out, 'relation-trials.csv'))).toHaveLength(3);
  });
});
