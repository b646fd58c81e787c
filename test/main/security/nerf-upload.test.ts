// NeRF uploads against the event loop (issue 38 item 1, docs/SECURITY.md): an amplified capture
// (one small 2048x2048 PNG named by 200 frames, 200 headers declaring 2048x2048, too many frames)
// is refused in one line before any frame is decoded, and a legal upload's frames are decoded on
// the worker pool, so another client's app.info is answered while they are (checked by order: the
// answer comes before the import's "read N frames" line, never by a time threshold). Before, the
// frames were decoded on the main thread: app.info waited for all of them.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../../src/main/services/connection';
import { createLabContext } from '../../../src/main/services/context';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { createLabServices, type LabServices } from '../../../src/main/services/lab';
import { MAX_NERF_FRAMES } from '../../../src/main/authoring/nerf-frames';
import { testTasks } from '../env/fixtures';
import { writeNerfFixture } from '../authoring/nerf-fixture';

let services: LabServices;
let close: () => Promise<void>;

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home: mkdtempSync(join(tmpdir(), 'splatlab-nerf-up-')), version: '0', transport: 'direct', grader: async () => grader });
  services = createLabServices(ctx);
  close = () => ctx.close();
});
afterAll(async () => close?.());

async function call(method: string, params: unknown, caller: Connection): Promise<{ ok: boolean; result?: unknown; message?: string }> {
  const out = await dispatchCall(services.handlers, method, params, caller);
  return out.ok ? { ok: true, result: out.result } : { ok: false, message: out.message };
}

/** A PNG whose header declares `size` x `size` RGBA and whose body is not there: decoding it fails. */
function pngHeader(size: number): Buffer {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(size, 16);
  b.writeUInt32BE(size, 20);
  b[24] = 8;
  b[25] = 6;
  return b;
}

const eye = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 4], [0, 0, 0, 1]];

async function upload(files: Record<string, Buffer>, who: Connection): Promise<string> {
  const begin = await call('author.upload.begin', { kind: 'nerf' }, who);
  const uploadId = String((begin.result as { uploadId: string }).uploadId);
  for (const [path, data] of Object.entries(files)) expect((await call('author.upload.put', { uploadId, path, data: data.toString('base64') }, who)).ok).toBe(true);
  return uploadId;
}

describe('NeRF uploads', () => {
  it('refuses an amplified capture in one line before decoding any frame', async () => {
    const who = new Connection();
    const transforms = (frames: { file_path: string }[]) => Buffer.from(JSON.stringify({ camera_angle_x: 0.69, frames: frames.map((f) => ({ ...f, transform_matrix: eye })) }));
    const cases: [Record<string, Buffer>, RegExp][] = [
      [{ 'transforms_train.json': transforms(Array.from({ length: 200 }, () => ({ file_path: './r_0' }))), 'r_0.png': pngHeader(2048) }, /frames 0 and 1 name the same image file \(r_0\.png\)/],
      [{ 'transforms_train.json': transforms(Array.from({ length: 200 }, (_, i) => ({ file_path: `./r_${i}` }))), ...Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`r_${i}.png`, pngHeader(2048)])) }, /the frames hold 838860800 pixels, over the limit of \d+: refused before decoding/],
      [{ 'transforms_train.json': transforms(Array.from({ length: MAX_NERF_FRAMES + 1 }, (_, i) => ({ file_path: `./r_${i}` }))) }, /lists 401 frames, over the limit of 400: refused before decoding/],
    ];
    for (const [files, refusal] of cases) {
      const uploadId = await upload(files, who);
      const r = await call('author.upload.finish', { uploadId, name: 'amplified' }, who);
      expect(r.ok).toBe(false);
      // The budget's line, not a PNG decoder's: nothing was decoded (the bodies are not even there).
      expect(r.message).toMatch(refusal);
    }
  });

  it("answers another client's app.info while a legal upload's frames are decoded", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-nerf-legal-'));
    writeNerfFixture(dir, { frames: 12, size: 128 });
    const files: Record<string, Buffer> = {};
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else files[relative(dir, join(d, e.name))] = readFileSync(join(d, e.name));
      }
    };
    walk(dir);
    const uploader = new Connection();
    const other = new Connection();
    const order: string[] = [];
    const detach = services.events.attach(uploader, (event, data) => {
      if (event === 'progress' && / read 12 frames /.test(String((data as { message?: string }).message))) order.push('frames read');
    });
    const uploadId = await upload(files, uploader);
    const finish = call('author.upload.finish', { uploadId, name: 'legal', steps: 1 }, uploader);
    const info = await call('app.info', {}, other);
    order.push('app.info answered');
    expect(info.ok).toBe(true);
    await finish;
    detach();
    expect(order).toEqual(['app.info answered', 'frames read']);
  });
});
