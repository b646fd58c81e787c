// `splatlab tasks --json` over the committed tasks folder: every task file is listed once, with
// the kind its file names, its family, budgets, a split and a sha256 content hash; --kind filters.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TaskEntrySchema } from '../../../../src/shared/task/registry';
import { runCli } from '../run';

const TASKS = resolve(__dirname, '../../../../tasks');

describe('splatlab tasks', () => {
  it('lists every committed task with its kind', async () => {
    const r = await runCli('tasks', ['--json', '--tasks', TASKS]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const entries = TaskEntrySchema.array().parse(JSON.parse(r.out.join('\n')));
    const files = readdirSync(TASKS).filter((f) => f.endsWith('.json')).sort();
    expect(entries.map((e) => `${e.id}.json`)).toEqual(files);
    for (const e of entries) {
      const spec = JSON.parse(readFileSync(join(TASKS, `${e.id}.json`), 'utf8')) as { kind: string; max_tool_calls?: number };
      expect(e.kind).toBe(spec.kind);
      expect(e.content_hash).toMatch(/^[0-9a-f]{64}$/);
      if (spec.max_tool_calls !== undefined) expect(e.budgets.max_tool_calls).toBe(spec.max_tool_calls);
    }
    expect(new Set(entries.map((e) => e.family))).toEqual(new Set(['splatbench', 'search', 'relation']));
    expect(entries.find((e) => e.id === 'relation__practice')?.split).toBe('practice');
  }, 60_000);

  it('filters by kind and names an unknown one', async () => {
    const r = await runCli('tasks', ['--json', '--kind', 'oneshot', '--tasks', TASKS]);
    const entries = TaskEntrySchema.array().parse(JSON.parse(r.out.join('\n')));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.kind === 'oneshot' && e.budgets.max_tool_calls === 1)).toBe(true);
    const bad = await runCli('tasks', ['--kind', 'nope', '--tasks', TASKS]);
    expect(bad.code).toBe(1);
    expect(bad.err[0]).toMatch(/^no task of kind 'nope'/);
  }, 60_000);
});
