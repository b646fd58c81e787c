// Whole-or-nothing writes: the new contents replace the old in one rename, with no temporary file
// left behind, and a write that fails leaves the target as it was.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/main/io/write-atomic';

describe('writeFileAtomic', () => {
  it('replaces text and bytes whole, durable or not, leaving only the target', () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-atomic-'));
    const path = join(dir, 'a.json');
    writeFileSync(path, 'old');
    writeFileAtomic(path, 'new ✓');
    expect(readFileSync(path, 'utf8')).toBe('new ✓');
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => i % 251);
    writeFileAtomic(path, bytes, { durable: false });
    expect(new Uint8Array(readFileSync(path))).toEqual(bytes);
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('leaves the target as it was when the rename cannot happen', () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-atomic-'));
    const target = join(dir, 'is-a-folder');
    writeFileSync(join(dir, 'keep.txt'), 'kept');
    expect(() => writeFileAtomic(join(dir, 'missing', 'x.json'), 'x')).toThrow(/ENOENT/);
    // Renaming a file over a non-empty folder fails: the folder and its file stay, no temporary file.
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'in');
    expect(() => writeFileAtomic(target, 'x')).toThrow();
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('in');
    expect(readdirSync(dir).sort()).toEqual(['is-a-folder', 'keep.txt']);
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
  });
});
