// Importing through the lab's upload rows (what the browser's file picker drives): a 3DGS .ply
// and a NeRF-Synthetic folder become tasks that pass the conformance check and appear in the
// task list; the file or frames are decoded, the photos written and read back and the new tasks'
// photos decoded on the worker pool, never on the event loop (issue 38 item 1), and a splat
// upload's preview is drawn there; an import cancelled while its fit runs (on the worker pool)
// writes nothing; a corrupt upload is one clear error and leaves nothing behind.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { previewSplatUpload } from '../../../../src/main/authoring/session/splat-preview';
import { Connection } from '../../../../src/main/services/connection';
import { dispatchCall } from '../../../../src/main/services/dispatch';
import { createLabServices } from '../../../../src/main/services/lab';
import { listRegistryTasks as listTasks } from '../../../../src/main/kinds/task-registry';
import { serialisePly } from '../../../../src/shared/authoring/import/ply';
import { testFigure } from '../../../helpers/test-figure';
import { writeNerfFixture } from '../nerf-fixture';

// LPIPS off (an empty weights folder): this test is about the import path, not the metric.
process.env.SPLATLAB_LPIPS_DIR = mkdtempSync(join(tmpdir(), 'splatlab-no-lpips-'));

function services(tasksDir: string) {
  return createLabServices({
    gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: 'CPU reference', summary: 'test' } },
    tasksDir,
    version: '0.0.0-test',
    transport: 'direct',
    listTasks,
  });
}

async function call(handlers: ReturnType<typeof services>['handlers'], method: string, params: unknown): Promise<Record<string, unknown>> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(out.message);
  return out.result as Record<string, unknown>;
}

async function upload(handlers: ReturnType<typeof services>['handlers'], kind: 'ply' | 'nerf', files: { path: string; bytes: Uint8Array }[]): Promise<string> {
  const { uploadId } = (await call(handlers, 'author.upload.begin', { kind })) as { uploadId: string };
  for (const f of files) await call(handlers, 'author.upload.put', { uploadId, path: f.path, data: Buffer.from(f.bytes).toString('base64') });
  return uploadId;
}

describe('author uploads', () => {
  it('imports a .ply into conforming tasks that show up in the list', async () => {
    const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-upload-')), 'tasks');
    const { handlers, context } = services(tasksDir);
    const run = vi.spyOn(context.pool, 'run');
    const uploadId = await upload(handlers, 'ply', [{ path: 'figure.ply', bytes: serialisePly(testFigure()) }]);
    const preview = await call(handlers, 'author.upload.preview', { uploadId, up: '+z', yawDeg: 30 });
    const staged = join(context.home, 'uploads', uploadId, 'figure.ply');
    expect(preview).toEqual(await previewSplatUpload(staged, '+z', 30));
    expect(run.mock.calls.map((c) => c[0])).toEqual(['author.splatPreview']);
    const saved = await call(handlers, 'author.upload.finish', { uploadId, name: 'figure', steps: 4, k: 2 });
    // Decoded, photos written and read back, the new tasks loaded: each on the pool.
    expect(run.mock.calls.map((c) => c[0])).toEqual(expect.arrayContaining(['format.read', 'views.write', 'views.read', 'author.fit']));
    expect(saved.ok).toBe(true);
    expect(saved.taskIds).toEqual(['figure__sculpt', 'figure__reassembly', 'figure__oneshot']);
    expect((await listTasks(tasksDir)).map((t) => t.id)).toEqual(expect.arrayContaining(['figure__sculpt', 'figure__reassembly', 'figure__oneshot']));
  }, 180_000);

  it('imports a NeRF-Synthetic folder uploaded file by file', async () => {
    const capture = mkdtempSync(join(tmpdir(), 'splatlab-nerf-'));
    writeNerfFixture(capture, { frames: 12, size: 64 });
    const files: { path: string; bytes: Uint8Array }[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else files.push({ path: relative(capture, full), bytes: new Uint8Array(readFileSync(full)) });
      }
    };
    walk(capture);
    const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-upload-')), 'tasks');
    const { handlers, context } = services(tasksDir);
    const run = vi.spyOn(context.pool, 'run');
    const uploadId = await upload(handlers, 'nerf', files);
    const saved = await call(handlers, 'author.upload.finish', { uploadId, name: 'capture', steps: 4 });
    expect(saved.ok).toBe(true);
    const kinds = run.mock.calls.map((c) => c[0]);
    expect(kinds).toEqual(expect.arrayContaining(['nerf.read', 'views.write', 'views.read', 'author.fit']));
    // Staged photos read back (ref, heldout) and each of the three new tasks loaded (ref, heldout).
    expect(kinds.filter((k) => k === 'views.read')).toHaveLength(8);
    expect((await listTasks(tasksDir)).some((t) => t.id === 'capture__sculpt')).toBe(true);
  }, 180_000);

  it('cancels an import while its fit runs on the worker pool, writing nothing', async () => {
    const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-upload-')), 'tasks');
    const lab = services(tasksDir);
    const who = new Connection();
    const fitting = new Promise<void>((resolve) => lab.events.attach(who, (event, data) => {
      if (event === 'progress' && /fit step/.test(String((data as { message?: string }).message))) resolve();
    }));
    const uploadId = await upload(lab.handlers, 'ply', [{ path: 'figure.ply', bytes: serialisePly(testFigure()) }]);
    const finish = dispatchCall(lab.handlers, 'author.upload.finish', { uploadId, name: 'figure', steps: 20_000, k: 2 }, who);
    await Promise.race([fitting, finish.then((o) => Promise.reject(new Error(`the import ended before its fit: ${JSON.stringify(o)}`)))]);
    expect(await call(lab.handlers, 'author.upload.cancel', { uploadId })).toEqual({ removed: true });
    const out = await finish;
    expect(out.ok).toBe(false);
    expect(!out.ok && out.message).toBe('author.upload.finish: import figure: cancelled, nothing written');
    expect(existsSync(tasksDir) ? readdirSync(tasksDir) : []).toEqual([]);
  }, 180_000);

  it('refuses a corrupt .ply with one line and writes no task', async () => {
    const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-upload-')), 'tasks');
    const { handlers } = services(tasksDir);
    const uploadId = await upload(handlers, 'ply', [{ path: 'broken.ply', bytes: new TextEncoder().encode('ply\nformat binary_little_endian 1.0\nelement vertex 3\nend_header\n') }]);
    const out = await dispatchCall(handlers, 'author.upload.finish', { uploadId, name: 'broken', steps: 4 });
    expect(out.ok).toBe(false);
    expect(!out.ok && out.message.split('\n')).toHaveLength(1);
    expect(existsSync(join(tasksDir, 'broken__sculpt.json'))).toBe(false);
  });
});
