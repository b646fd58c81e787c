// The per-machine cache of decoded task photos (src/main/tasks/view-cache.ts): a view set read
// through it equals readViews bit for bit, from an empty cache and from the file it wrote; a hit
// is served from that file; a corrupted entry is decoded again and rewritten; a changed photo,
// mask or camera list is a different entry; bad task files give readViews' own errors.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../../src/main/io/png';
import { readViews, TaskLoadError } from '../../../src/main/tasks/load';
import { cachedViewReader, viewCacheDir, viewSetKey } from '../../../src/main/tasks/view-cache';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import type { ViewEntry } from '../../../src/shared/task/schema';
import { randomImage, seeded } from '../../shared/metrics/random';

const SIZE = 24;
const rand = seeded(5);

/** An object folder with heldout/ photos (A, B) and one mask (A's). */
function objectDir(): { dir: string; entries: ViewEntry[] } {
  const dir = mkdtempSync(join(tmpdir(), 'splatlab-view-cache-obj-'));
  mkdirSync(join(dir, 'heldout'));
  const entries = ['A', 'B'].map((name, i): ViewEntry => ({ name, azimuth: 40 * i, camera: orbitCamera({ azimuth: 40 * i, elevation: 20, width: SIZE, height: SIZE }) }));
  for (const e of entries) writeFileSync(join(dir, 'heldout', `${e.name}.png`), encodePng(randomImage(SIZE, SIZE, rand)));
  const mask = Uint8Array.from({ length: SIZE * SIZE }, (_, i) => (i % 7 === 0 ? 0 : 255));
  writeFileSync(join(dir, 'heldout', 'A_mask.png'), encodePng({ width: SIZE, height: SIZE, channels: 1, data: mask }));
  return { dir, entries };
}

describe('cachedViewReader', () => {
  it('gives what readViews gives, from an empty and a filled cache, the hit from its file', async () => {
    const { dir, entries } = objectDir();
    const cache = join(mkdtempSync(join(tmpdir(), 'splatlab-view-cache-')), 'task-views');
    const read = cachedViewReader(cache);
    const plain = readViews(dir, 'heldout', entries, 'test');
    expect(await read(dir, 'heldout', entries, 'test')).toEqual(plain);
    const files = readdirSync(cache);
    expect(files).toEqual([`${viewSetKey(dir, 'heldout', entries)}.f32`]);
    const hit = await read(dir, 'heldout', entries, 'test');
    expect(hit).toEqual(plain);
    for (const v of hit) expect(v.photo.data.byteLength).toBe(v.photo.data.buffer.byteLength); // buffers of their own

    // A consistent entry with other floats is served as it is: the hit does come from the file.
    const path = join(cache, files[0]);
    const bytes = readFileSync(path);
    const payload = bytes.subarray(0, bytes.length - 32);
    new Float32Array(payload.buffer, payload.byteOffset, 1)[0] = 0.25;
    writeFileSync(path, Buffer.concat([payload, createHash('sha256').update(payload).digest()]));
    expect((await read(dir, 'heldout', entries, 'test'))[0].photo.data[0]).toBe(0.25);

    // A corrupted entry (one byte changed, trailer not) is decoded again and rewritten.
    const corrupt = Buffer.from(readFileSync(path));
    corrupt[100] ^= 1;
    writeFileSync(path, corrupt);
    expect(await read(dir, 'heldout', entries, 'test')).toEqual(plain);
    expect(await read(dir, 'heldout', entries, 'test')).toEqual(plain);
    expect(readFileSync(path).subarray(0, -32)).toEqual(Buffer.from(new Uint8Array(plain.flatMap((v) => [...new Uint8Array(v.photo.data.buffer), ...new Uint8Array(v.mask.buffer)]))));
  });

  it('keys on every photo, mask and camera entry', () => {
    const { dir, entries } = objectDir();
    const key = viewSetKey(dir, 'heldout', entries);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(viewSetKey(dir, 'heldout', [{ ...entries[0], azimuth: 41 }, entries[1]])).not.toBe(key);
    writeFileSync(join(dir, 'heldout', 'B_mask.png'), readFileSync(join(dir, 'heldout', 'A_mask.png')));
    const withMask = viewSetKey(dir, 'heldout', entries);
    expect(withMask).not.toBe(key);
    writeFileSync(join(dir, 'heldout', 'B.png'), encodePng(randomImage(SIZE, SIZE, rand)));
    expect(viewSetKey(dir, 'heldout', entries)).not.toBe(withMask);
    expect(viewCacheDir('/some/home')).toBe(join('/some/home', 'cache', 'task-views'));
  });

  it('bad task files give readViews errors and write nothing', async () => {
    const { dir, entries } = objectDir();
    const cache = join(mkdtempSync(join(tmpdir(), 'splatlab-view-cache-')), 'task-views');
    unlinkSync(join(dir, 'heldout', 'B.png'));
    await expect(cachedViewReader(cache)(dir, 'heldout', entries, 'task t')).rejects.toThrow(TaskLoadError);
    await expect(cachedViewReader(cache)(dir, 'heldout', entries, 'task t')).rejects.toThrow(/task t: missing photo/);
    expect(() => readdirSync(cache)).toThrow();
  });
});
