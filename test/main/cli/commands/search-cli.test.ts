// `splatlab search`: one CLI with the rest (--tasks DIR, --dir and --tasks-dir as older
// spellings), complete help (every subcommand in the usage and the summary, no broken lines),
// a committed task checked by id with its chance, and one-line errors.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../../../src/main/cli/commands/index';
import { command } from '../../../../src/main/kinds/search/cli';
import { runCli } from '../run';

const SUBS = ['generate', 'check', 'baseline', 'filter', 'goals', 'export', 'annotation-task', 'judge', 'make-prop'];
const TASK = 'search__room-24__search-2-1';

describe('splatlab search CLI', () => {
  it('documents every subcommand in the usage and the summary, without a literal line break', () => {
    for (const s of SUBS) {
      expect(command.usage).toContain(`splatlab search ${s} `);
      expect(command.usage).toMatch(new RegExp(`^${s}: `, 'm'));
    }
    expect(command.usage).not.toContain('\\n');
    expect(command.usage.split('\n').every((l) => l.length <= 120)).toBe(true);
    expect(commands().search.summary).toContain(SUBS.join('|'));
  });

  it('checks one committed task by id with --tasks, --dir or --tasks-dir', async () => {
    const dir = join(process.cwd(), 'tasks');
    for (const flag of ['--tasks', '--dir', '--tasks-dir']) {
      const run = await runCli('search', ['check', flag, dir, '--task', TASK]);
      expect(run.code).toBe(0);
      expect(run.out[0]).toMatch(new RegExp(`^${TASK}: ok \\(\\d+ steps to an answerable view; chance 20\\.0%\\)$`));
      expect(run.out.at(-1)).toMatch(/^1\/1 search tasks conform over 1 rooms; splits by scene: (train|val|test) 1 rooms \/ 1 episodes$/);
    }
  }, 120_000);

  it('judges a model\'s blind baseline with --judge, and says the exact checker read the open answers provisionally without it', async () => {
    const dir = join(process.cwd(), 'tasks');
    const judged = await runCli('search', ['baseline', '--tasks', dir, '--task', TASK, '--model', 'scripted:basic', '--player', 'blind', '--judge', 'scripted:basic', '--size', '16']);
    expect(judged.code).toBe(0);
    expect(judged.out.at(-1)).toBe('scripted:basic blind: judge accuracy 0.0% over 1 judged answers (0 unparseable) of 1 episodes, judged by scripted:basic; exact checker no closed ones; analytic chance 20.0%');
    const exact = await runCli('search', ['baseline', '--tasks', dir, '--task', TASK, '--model', 'scripted:basic', '--player', 'blind']);
    expect(exact.out.at(-1)).toMatch(/^scripted:basic blind: exact checker 0\.0% over 1 episodes, not judged \(1 open answers read only provisionally: --judge SPEC marks them as E3VS does\)/);
  }, 60_000);

  it('refuses bad input in one line', async () => {
    expect((await runCli('search', ['check', '--bogus'])).err[0]).toMatch(/unknown option --bogus/);
    expect((await runCli('search', ['make-prop'])).err[0]).toMatch(/needs --out FILE/);
    expect((await runCli('search', ['baseline', '--model', 'scripted:basic', '--player', 'oracle'])).err[0]).toMatch(/static baselines only/);
  });
});
