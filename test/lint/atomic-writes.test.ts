// One atomic-write helper (issue 23 item 4; src/main/io/write-atomic.ts): a whole-file write that
// must never be seen half done goes through writeFileAtomic, so no file under src/ renames a
// temporary file of its own. The few renames left are not whole-file writes and say why here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Files that may rename, each for a reason the helper cannot serve. */
const ALLOWED: Record<string, string> = {
  'src/main/io/write-atomic.ts': 'the helper itself',
  'src/main/formats/write.ts': 'streams a large splat file in chunks with progress (async), never whole in memory',
  'src/main/workers/compiled.ts': 'esbuild writes the temporary bundle itself; only the rename is ours',
  'src/main/authoring/staging.ts': 'swaps whole folders, not files',
  'src/main/authoring/rescramble.ts': 'moves files a child process wrote into a temporary folder',
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|vue)$/.test(name) ? [path] : [];
  });
}

/** Whether the code renames a file: it imports node:fs (or its promises) and calls rename or renameSync. */
export const renames = (code: string): boolean => /from 'node:fs(\/promises)?'/.test(code) && /\brename(Sync)?\s*\(/.test(code.replace(/\/\/.*$/gm, ''));

describe('atomic writes go through the one helper', () => {
  it('no file outside the allowed list renames a temporary file', () => {
    const offenders = sources('src')
      .map((p) => relative(process.cwd(), p).split('\\').join('/'))
      .filter((p) => !(p in ALLOWED) && renames(readFileSync(p, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the check sees a hand-rolled temp-and-rename', () => {
    const fs = "import { renameSync, writeFileSync } from 'node:fs';\n";
    expect(renames(`${fs}writeFileSync(\`\${path}.tmp\`, data);\nrenameSync(\`\${path}.tmp\`, path);\n`)).toBe(true);
    expect(renames("import { rename } from 'node:fs/promises';\nawait rename(tmp, path);\n")).toBe(true);
    expect(renames(`${fs}writeFileAtomic(path, data); // not renameSync(a, b)\n`)).toBe(false);
    expect(renames('function rename(name: string): void {}\n')).toBe(false);
  });

  it('every allowed file still renames (a stale entry is removed)', () => {
    for (const p of Object.keys(ALLOWED)) expect(renames(readFileSync(p, 'utf8')), p).toBe(true);
  });
});
