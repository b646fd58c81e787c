// The compiled worker entry (src/main/workers/compiled.ts, issue 29 item 9): the bundle is named
// by a hash of the sources, reused while they are unchanged (across calls and processes: the
// cache is a file), rebuilt under a new name when one changes (the newest KEEP_BUNDLES kept, for a
// lab started before the edit), and the
// lab's own pool threads run from it when running from source.
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiledEntry, compiledPoolWorker, KEEP_BUNDLES } from '../../../src/main/workers/compiled';
import { sourceHash } from '../../../src/main/io/source-hash.mjs';

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'splatlab-compiled-'));
  mkdirSync(join(root, 'src', 'main'), { recursive: true });
  mkdirSync(join(root, 'src', 'shared'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{}');
  writeFileSync(join(root, 'src', 'shared', 'value.ts'), 'export const value: number = 1;\n');
  writeFileSync(join(root, 'src', 'main', 'entry.ts'), "import { value } from '../shared/value';\nexport const answer: number = value + 41;\n");
  return root;
}

describe('compiled worker entry', () => {
  it('reuses the bundle while the sources are unchanged and rebuilds it when one changes', async () => {
    const root = tree();
    const entry = join(root, 'src', 'main', 'entry.ts');
    const first = compiledEntry(entry, root);
    expect(first).not.toBeNull();
    expect(first).toContain(sourceHash(root));
    const made = statSync(first as string).mtimeMs;
    expect(compiledEntry(entry, root)).toBe(first);
    expect(statSync(first as string).mtimeMs).toBe(made);
    expect(((await import(pathToFileURL(first as string).href)) as { answer: number }).answer).toBe(42);

    writeFileSync(join(root, 'src', 'shared', 'value.ts'), 'export const value: number = 2;\n');
    const second = compiledEntry(entry, root);
    expect(second).not.toBe(first);
    expect(((await import(pathToFileURL(second as string).href)) as { answer: number }).answer).toBe(43);
    // The first bundle stays for a lab started before the edit; past KEEP_BUNDLES the oldest go.
    const cache = join(root, 'node_modules', '.cache', 'splatlab');
    expect(readdirSync(cache).sort()).toEqual([first, second].map((p) => (p as string).split('/').pop()).sort());
    const built = [first, second];
    for (let v = 3; v <= KEEP_BUNDLES + 2; v++) {
      writeFileSync(join(root, 'src', 'shared', 'value.ts'), `export const value: number = ${v};\n`);
      built.push(compiledEntry(entry, root));
    }
    expect(readdirSync(cache).sort()).toEqual(built.slice(-KEEP_BUNDLES).map((p) => (p as string).split('/').pop()).sort());
  });

  it('gives null (the caller falls back to tsx) when the entry does not compile', () => {
    const root = tree();
    writeFileSync(join(root, 'src', 'main', 'broken.ts'), 'export const = ;\n');
    expect(compiledEntry(join(root, 'src', 'main', 'broken.ts'), root)).toBeNull();
  });

  it('is what the lab\'s pool threads load from source', () => {
    const path = compiledPoolWorker();
    expect(path).toMatch(/node_modules\/\.cache\/splatlab\/pool-worker-[0-9a-f]{16}\.mjs$/);
    expect(path).toContain(sourceHash(process.cwd()));
  });
});
