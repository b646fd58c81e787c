// LabApi tasks.list reads the one task registry: over the committed tasks folder its rows carry
// exactly the entries `splatlab tasks --json` prints (kind, family, budgets, split, source, content
// hash), in the same order, beside summaries that agree with them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { createLabServices } from '../../../src/main/services/lab';
import { TaskEntrySchema, TaskListItemSchema } from '../../../src/shared/task/registry';
import { runCli } from '../cli/run';

const TASKS = resolve(__dirname, '../../../tasks');

describe('tasks.list', () => {
  it('lists the registry: the same entries as splatlab tasks --json', async () => {
    const services = createLabServices({
      gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } },
      tasksDir: TASKS,
      version: '0',
      transport: 'direct',
      home: mkdtempSync(join(tmpdir(), 'splatlab-tasks-list-')),
      poolSize: 1,
    });
    try {
      const out = await dispatchCall(services.handlers, 'tasks.list', {});
      if (!out.ok) throw new Error(out.message);
      const rows = TaskListItemSchema.array().parse(out.result);
      const cli = await runCli('tasks', ['--json', '--tasks', TASKS]);
      expect(cli.code).toBe(0);
      const entries = TaskEntrySchema.array().parse(JSON.parse(cli.out.join('\n')));
      expect(entries.length).toBeGreaterThan(100);
      expect(rows.map((r) => r.entry)).toEqual(entries);
      for (const r of rows) {
        expect(r.id).toBe(r.entry.id);
        expect(r.kind).toBe(r.entry.kind);
        expect(r.budgets.maxToolCalls).toBe(r.entry.budgets.max_tool_calls);
      }
    } finally {
      await services.context.close();
    }
  }, 120_000);
});
