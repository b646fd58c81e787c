// The user's files live in the lab home (issue 38 item 8, docs/SECURITY.md): a real `splatlab
// serve` on its defaults (no tasks folder, captures or data folder named) takes a .ply upload
// through the Author rows; the object and its three tasks land in <home>/tasks, the task list
// shows them beside the built-in set, an upload named like a built-in object is refused in one
// line, and the checkout's `git status` (untracked and ignored entries included) is the same
// before and after: nothing the lab wrote landed in its own folder. Before, the upload went to
// the checkout's tasks/ (SPLATLAB_TASKS_DIR's default) and showed as untracked files there.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialisePly } from '../../../src/shared/authoring/import/ply';
import { testFigure } from '../../helpers/test-figure';
import { openClient, type LabClient } from '../workers/ws-client';
import { startLiveServer, type LiveServer } from './live-server';

const status = (): string => execFileSync('git', ['status', '--porcelain', '--untracked-files=normal', '--ignored'], { encoding: 'utf8' });

let server: LiveServer;
let client: LabClient;
let before: string;

beforeAll(async () => {
  before = status();
  // LPIPS off (an empty weights folder): the test is about where files go, not the metric.
  server = await startLiveServer(null, { SPLATLAB_LPIPS_DIR: mkdtempSync(join(tmpdir(), 'splatlab-no-lpips-')) });
  client = await openClient(server);
}, 120_000);
afterAll(async () => {
  client?.close();
  await server?.stop();
});

async function uploadPly(name: string): Promise<{ objectDir: string; taskIds: string[] }> {
  const { uploadId } = await client.call<{ uploadId: string }>('author.upload.begin', { kind: 'ply' });
  await client.call('author.upload.put', { uploadId, path: 'figure.ply', data: Buffer.from(serialisePly(testFigure())).toString('base64') });
  return client.call('author.upload.finish', { uploadId, name, steps: 4, k: 2 });
}

describe('serve on its defaults', () => {
  it('writes an upload into the lab home and lists it beside the built-in set', async () => {
    const saved = await uploadPly('figure');
    expect(saved.objectDir).toBe(join(server.home, 'tasks', 'objects', 'figure'));
    expect(existsSync(join(server.home, 'tasks', 'figure__sculpt.json'))).toBe(true);
    const ids = (await client.call<{ entry: { id: string } }[]>('tasks.list', {})).map((t) => t.entry.id);
    expect(ids).toEqual(expect.arrayContaining(['figure__sculpt', 'figure__reassembly', 'figure__oneshot', 'tree__sculpt']));
  }, 180_000);

  it('refuses an upload named like a built-in object in one line', async () => {
    await expect(uploadPly('tree')).rejects.toThrow(/^author\.upload\.finish: 'tree' is an object of the built-in set, which is read-only; choose another name[^\n]*$/);
  }, 60_000);

  it("leaves the checkout's git status as it was", () => {
    expect(status()).toBe(before);
  });
});
