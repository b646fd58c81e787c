// The task list of a serving path hashes off the event loop (issue 38 item 1; src/main/kinds/
// task-registry.ts): LabApi tasks.list and the RL protocol's GET /tasks read each task file from a
// stream a chunk at a time, so the loop turns while a large file is hashed, and the rows (content
// hashes included) are the CLI's synchronous listing's; a changed file is hashed again.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../src/main/io/data-dir';
import { listRegistryTasks, taskListing, taskRegistryAsync } from '../../../src/main/kinds/task-registry';
import { loopTurnsDuring } from '../../helpers/loop-turns';

const ID = 'relation__forest__tent-bear__allo';
const tmp = mkdtempSync(join(tmpdir(), 'registry-async-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A tasks folder holding one relation task whose parameters file is padded to `bytes` (JSON allows the blanks). */
function tasksWithLargeFile(name: string, bytes: number): { dir: string; params: string } {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'relation'), { recursive: true });
  copyFileSync(join(repoRoot(), 'tasks', `${ID}.json`), join(dir, `${ID}.json`));
  const text = readFileSync(join(repoRoot(), 'tasks', 'relation', `${ID}.json`), 'utf8');
  const params = join(dir, 'relation', `${ID}.json`);
  writeFileSync(params, text + ' '.repeat(Math.max(0, bytes - text.length)));
  return { dir, params };
}

describe('the task list off the event loop', () => {
  it('hashes a large task file from a stream while the loop turns, the same rows as the synchronous listing', async () => {
    const sync = taskListing(tasksWithLargeFile('sync', 4 << 20).dir);
    const { dir } = tasksWithLargeFile('async', 4 << 20);
    const { value: items, turns } = await loopTurnsDuring(() => listRegistryTasks(dir));
    // 4 MiB read in 64 KiB chunks: the loop turns between them (a synchronous hash turns it 0 times).
    expect(turns).toBeGreaterThan(8);
    expect(sync.problems).toEqual([]);
    expect(items).toEqual(sync.items);
    expect(items[0].entry.content_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes a changed file again; the RL protocol\'s registry is the same list', async () => {
    const { dir, params } = tasksWithLargeFile('changed', 1 << 20);
    const before = (await taskRegistryAsync(dir)).tasks[0];
    writeFileSync(params, `${readFileSync(params, 'utf8')} `);
    utimesSync(params, new Date(), new Date(Date.now() + 5000));
    const after = (await taskRegistryAsync(dir)).tasks[0];
    expect(after.content_hash).not.toBe(before.content_hash);
    expect(after).toEqual(taskListing(dir).items[0].entry);
  });
});
