// The debugger opens splat files of any supported format by path (the watched captures folder)
// and by chunked upload (no size cap, a memory budget that refuses in one line, cancel), and
// renders a view of what it opened.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DebugFiles, DebugImage, DebugSession } from '../../../src/shared/api/debug';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { createLabContext } from '../../../src/main/services/context';
import { createDebugHandlers } from '../../../src/main/services/debug';
import { fakeServices } from '../services/fixtures';
import { testTasks } from '../env/fixtures';
import { oracleWrite, randomColumns } from '../formats/oracle';

let handlers: Handlers;
let home: string;
const captures = mkdtempSync(join(tmpdir(), 'splatlab-captures-'));

async function call<T>(method: string, params: unknown): Promise<T> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(out.message);
  return out.result as T;
}

async function failure(method: string, params: unknown): Promise<string> {
  const out = await dispatchCall(handlers, method, params);
  if (out.ok) throw new Error(`${method} succeeded but should have failed`);
  expect(out.message.split('\n')).toHaveLength(1);
  return out.message;
}

async function upload(name: string, bytes: Uint8Array, chunk = 1000): Promise<string> {
  const { uploadId } = await call<{ uploadId: string }>('debug.upload.begin', { name, bytes: bytes.length });
  for (let at = 0; at < bytes.length; at += chunk) {
    await call('debug.upload.put', { uploadId, offset: at, data: Buffer.from(bytes.subarray(at, at + chunk)).toString('base64') });
  }
  return uploadId;
}

beforeAll(async () => {
  const { tasksDir } = await testTasks();
  home = mkdtempSync(join(tmpdir(), 'splatlab-debug-home-'));
  process.env.SPLATLAB_CAPTURES = captures;
  const deps = { gpu: { device: null, status: { path: 'cpu' as const, vendor: '', architecture: '', description: '', summary: 'CPU test mode' } }, tasksDir, version: '0', transport: 'direct' as const, listTasks: async () => [] };
  handlers = { ...fakeServices().handlers, ...createDebugHandlers(createLabContext({ ...deps, home })) };
});

afterEach(() => {
  delete process.env.SPLATLAB_DEBUG_MEMORY_MB;
});

describe('splat files in the debugger', () => {
  it('lists and opens a compressed .ply from the watched folder, and renders it', async () => {
    const path = await oracleWrite('compressed-ply', randomColumns(512, 3, 1), join(captures, 'room'));
    const files = await call<DebugFiles>('debug.files', {});
    expect(files.folders).toContain(captures);
    expect(files.files.map((f) => f.path)).toContain(path);
    const s = await call<DebugSession>('debug.open', { source: { kind: 'file', path } });
    expect(s.count).toBe(512);
    expect(s.label).toBe('scene.compressed.ply (PlayCanvas compressed .ply (SH degree 3))');
    expect(s.warnings[0]).toMatch(/^axes as stored \(.*up -y, guess\): nothing rotated$/);
    expect(s.gaussians).toHaveLength(512);
    const img = await call<DebugImage>('debug.view', { sessionId: s.sessionId, camera: { kind: 'orbit', azimuth: 30, elevation: 20, width: 32, height: 32 }, view: 'coverage' });
    expect(img.width).toBe(32);
    expect(await failure('debug.open', { source: { kind: 'file', path: '/etc/passwd' } })).toMatch(/is outside the lab home and the watched captures folders/);
  });

  it('opens an SPZ sent in chunks, refusing chunks out of order', async () => {
    const path = await oracleWrite('spz', randomColumns(300, 2, 2), mkdtempSync(join(tmpdir(), 'spz-')));
    const bytes = new Uint8Array(readFileSync(path));
    const id = await upload('capture.spz', bytes, 997);
    const s = await call<DebugSession>('debug.open', { source: { kind: 'upload', uploadId: id } });
    expect(s.count).toBe(300);
    expect(s.label).toContain('Niantic SPZ v4');
    expect(await failure('debug.open', { source: { kind: 'upload', uploadId: id } })).toMatch(/no open debug upload/);
    const { uploadId } = await call<{ uploadId: string }>('debug.upload.begin', { name: 'x.spz', bytes: bytes.length });
    expect(await failure('debug.upload.put', { uploadId, offset: 10, data: 'AAAA' })).toMatch(/chunk at byte 10, expected 0 \(chunks arrive in order\)/);
    expect(await failure('debug.open', { source: { kind: 'upload', uploadId } })).toMatch(/x\.spz is incomplete: 0 of \d+ bytes arrived/);
    expect((await call<{ cancelled: boolean }>('debug.upload.cancel', { uploadId })).cancelled).toBe(true);
  });

  it('refuses what the memory budget cannot hold, before and after the upload', async () => {
    process.env.SPLATLAB_DEBUG_MEMORY_MB = '0.2';
    expect(await failure('debug.upload.begin', { name: 'big.ply', bytes: 10_000_000 })).toMatch(/big\.ply is 9\.5 MiB, over the debugger's memory budget of 0 MiB/);
    // A small SPZ file whose decoded scene exceeds the budget is refused once its header is read.
    const path = await oracleWrite('spz', randomColumns(2000, 3, 3), mkdtempSync(join(tmpdir(), 'spz-')));
    const id = await upload('dense.spz', new Uint8Array(readFileSync(path)), 50_000);
    expect(await failure('debug.open', { source: { kind: 'upload', uploadId: id } })).toMatch(/^debug\.open: dense\.spz: Niantic SPZ: 2000 Gaussians \(SH degree 3\) need about .* MiB decoded, over the memory budget of 0\.2 MiB: refused before decoding$/);
  });

  it('a truncated upload is one line naming the format', async () => {
    mkdirSync(join(captures, 'bad'), { recursive: true });
    const path = await oracleWrite('ply', randomColumns(100, 1, 4), join(captures, 'bad'));
    const bytes = new Uint8Array(readFileSync(path)).subarray(0, 5000);
    const id = await upload('cut.ply', bytes, 4096);
    expect(await failure('debug.open', { source: { kind: 'upload', uploadId: id } })).toMatch(/^debug\.open: cut\.ply: INRIA 3DGS \.ply: truncated: 100 vertex rows need \d+ bytes, the file has 5000/);
  });
});
