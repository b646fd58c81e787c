// The sources' hash that names the compiled bundles (src/main/io/source-hash.mjs, issue 40 item 3):
// its value is the definition's (every .ts and .mjs file's path and SHA-256, in path order) with
// and without its stat index; an edit, an added or a removed file changes it at once; a file whose
// stat is unchanged and settled is taken from the index without being read, and one that changed
// within the racy window of the index's writing is read again.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceHash, sourceIndexPath } from '../../../src/main/io/source-hash.mjs';

const sha = (b: string | Buffer): string => createHash('sha256').update(b).digest('hex');

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'splatlab-source-hash-'));
  mkdirSync(join(root, 'src', 'main', 'cli'), { recursive: true });
  mkdirSync(join(root, 'src', 'shared'), { recursive: true });
  writeFileSync(join(root, 'src', 'shared', 'value.ts'), 'export const value = 1;\n');
  writeFileSync(join(root, 'src', 'main', 'cli', 'run.mjs'), 'export const run = 1;\n');
  writeFileSync(join(root, 'src', 'main', 'notes.txt'), 'not a source\n');
  return root;
}

/** The definition: SHA-256 over each source's path and content hash, in path order, 16 hex digits. */
function definition(root: string, files: string[]): string {
  const h = createHash('sha256');
  for (const f of [...files].sort()) h.update(f).update('\0').update(sha(readFileSync(join(root, f)))).update('\0');
  return h.digest('hex').slice(0, 16);
}

interface Index {
  version: number;
  written: string;
  files: Record<string, [string, string]>;
}

const FILES = ['src/main/cli/run.mjs', 'src/shared/value.ts'];

describe('sourceHash', () => {
  it('is the definition with and without its index, and follows edits, new and removed files at once', () => {
    const root = tree();
    const first = sourceHash(root);
    expect(first).toBe(definition(root, FILES));
    expect(Object.keys((JSON.parse(readFileSync(sourceIndexPath(root), 'utf8')) as Index).files).sort()).toEqual(FILES);
    expect(sourceHash(root)).toBe(first);
    rmSync(sourceIndexPath(root));
    expect(sourceHash(root)).toBe(first);
    // The same size, written at once (a racy entry): read again.
    writeFileSync(join(root, 'src', 'shared', 'value.ts'), 'export const value = 2;\n');
    const edited = sourceHash(root);
    expect(edited).not.toBe(first);
    expect(edited).toBe(definition(root, FILES));
    writeFileSync(join(root, 'src', 'shared', 'more.ts'), 'export const more = 3;\n');
    expect(sourceHash(root)).toBe(definition(root, [...FILES, 'src/shared/more.ts']));
    rmSync(join(root, 'src', 'shared', 'more.ts'));
    expect(sourceHash(root)).toBe(edited);
    writeFileSync(sourceIndexPath(root), '{"version": 1, "written": "12'); // torn
    expect(sourceHash(root)).toBe(edited);
  });

  it('takes a settled file with an unchanged stat from the index, and reads a racy one again', () => {
    const root = tree();
    const real = sourceHash(root);
    const path = sourceIndexPath(root);
    const index = JSON.parse(readFileSync(path, 'utf8')) as Index;
    const rel = 'src/shared/value.ts';
    const ctime = statSync(join(root, rel), { bigint: true }).ctimeNs;
    // A forged digest under the file's own stat key: used when the index was written well after
    // the file's last change (so the file is not read), ignored when it was written within 3 s of it.
    index.files[rel] = [index.files[rel][0], sha('forged')];
    const forged = createHash('sha256');
    for (const f of FILES) forged.update(f).update('\0').update(f === rel ? sha('forged') : sha(readFileSync(join(root, f)))).update('\0');
    writeFileSync(path, JSON.stringify({ ...index, written: (ctime + 60_000_000_000n).toString() }));
    expect(sourceHash(root)).toBe(forged.digest('hex').slice(0, 16));
    writeFileSync(path, JSON.stringify({ ...index, written: (ctime + 1_000_000_000n).toString() }));
    expect(sourceHash(root)).toBe(real);
    // Another stat (a changed size) is read again, however settled the index.
    index.files[rel] = ['1:2:3:4', sha('forged')];
    writeFileSync(path, JSON.stringify({ ...index, written: (ctime + 60_000_000_000n).toString() }));
    expect(sourceHash(root)).toBe(real);
  });
});
