// Checked cache files (src/main/io/checked-file.ts): a payload written is read back byte for
// byte, whole or in parts with buffers of their own; a missing, truncated, resized or bit-flipped
// file reads as null (the caches then recompute), also when read off the event loop (readCheckedAsync), and an unwritable folder is no error.
// writeCheckedAsync (a serving grade's photo cache, issue 38 item 1) writes the same file on
// libuv's pool: the event loop turns while a large one is written, and no temporary file stays.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { floatBytes, readChecked, readCheckedAsync, readCheckedParts, writeChecked, writeCheckedAsync } from '../../../src/main/io/checked-file';
import { loopTurnsDuring } from '../../helpers/loop-turns';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-checked-'));
const payload = floatBytes(Float32Array.from({ length: 300 }, (_, i) => Math.sin(i) * 1e3));

describe('checked cache files', () => {
  it('reads back what was written, whole, shared or in parts', () => {
    const path = join(dir, 'sub', 'a.f32');
    expect(writeChecked(path, payload)).toBe(true);
    expect(readChecked(path)).toEqual(payload);
    expect(readChecked(path, { bytes: payload.length })).toEqual(payload);
    const shared = readChecked(path, { shared: true });
    expect(shared?.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(shared).toEqual(payload);
    const parts = readCheckedParts(path, [400, 800]);
    expect(parts?.map((p) => [p.byteOffset, p.byteLength === p.buffer.byteLength])).toEqual([[0, true], [0, true]]);
    expect(parts?.[0]).toEqual(payload.subarray(0, 400));
    expect(parts?.[1]).toEqual(payload.subarray(400));
  });

  it('reads the same off the event loop', async () => {
    const path = join(dir, 'c.f32');
    writeChecked(path, payload);
    expect(await readCheckedAsync(path)).toEqual(payload);
    const shared = await readCheckedAsync(path, { bytes: payload.length, shared: true });
    expect(shared?.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(shared).toEqual(payload);
  });

  it('reads a damaged or mismatched file as null', () => {
    const path = join(dir, 'b.f32');
    writeChecked(path, payload);
    const good = readFileSync(path);
    expect(readChecked(join(dir, 'missing.f32'))).toBeNull();
    expect(readChecked(path, { bytes: payload.length - 4 })).toBeNull();
    expect(readCheckedParts(path, [400, 796])).toBeNull();
    // One flipped bit in the payload, then in the trailer: same size, wrong bytes.
    for (const at of [77, good.length - 1]) {
      const bad = Buffer.from(good);
      bad[at] ^= 4;
      writeFileSync(path, bad);
      expect(readChecked(path)).toBeNull();
      expect(readChecked(path, { bytes: payload.length })).toBeNull();
    }
    writeFileSync(path, good.subarray(0, good.length - 8));
    expect(readChecked(path)).toBeNull();
    writeFileSync(path, good.subarray(0, 20));
    expect(readChecked(path)).toBeNull();
    writeFileSync(path, good);
    expect(readChecked(path)).toEqual(payload);
  });

  it('reads a damaged or mismatched file as null off the event loop too', async () => {
    const path = join(dir, 'd.f32');
    writeChecked(path, payload);
    const good = readFileSync(path);
    expect(await readCheckedAsync(join(dir, 'missing.f32'))).toBeNull();
    expect(await readCheckedAsync(path, { bytes: payload.length - 4 })).toBeNull();
    for (const at of [77, good.length - 1]) {
      const bad = Buffer.from(good);
      bad[at] ^= 4;
      writeFileSync(path, bad);
      expect(await readCheckedAsync(path, { bytes: payload.length, shared: true })).toBeNull();
    }
    writeFileSync(path, good.subarray(0, 20));
    expect(await readCheckedAsync(path)).toBeNull();
  });

  it('an unwritable cache is not an error', async () => {
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    expect(writeChecked(join(file, 'under-a-file.f32'), payload)).toBe(false);
    expect(await writeCheckedAsync(join(file, 'under-a-file.f32'), payload)).toBe(false);
  });

  it('writes the same file off the event loop, which turns meanwhile', async () => {
    const sub = mkdtempSync(join(dir, 'async-'));
    writeChecked(join(sub, 'sync.f32'), payload);
    expect(await writeCheckedAsync(join(sub, 'async.f32'), payload)).toBe(true);
    expect(readFileSync(join(sub, 'async.f32')).equals(readFileSync(join(sub, 'sync.f32')))).toBe(true);
    const big = floatBytes(new Float32Array(1 << 20).fill(0.5));
    const { value: wrote, turns } = await loopTurnsDuring(() => writeCheckedAsync(join(sub, 'big.f32'), big));
    expect(wrote).toBe(true);
    expect(turns).toBeGreaterThan(0);
    expect(Buffer.from(readChecked(join(sub, 'big.f32'))!).equals(Buffer.from(big))).toBe(true);
    expect(readdirSync(sub).sort()).toEqual(['async.f32', 'big.f32', 'sync.f32']);
  });
});
