// The test files that share one module graph per worker (vitest.config.ts project 'node-shared'
// and the e2e project of vitest.e2e.config.ts, both isolate: false) must leave the process as they
// found it (docs/DEVELOPING.md, "Test-suite time"): a unit file that sets or deletes the
// environment, mocks a module, stubs the environment, fakes the clock, spies on a class's
// prototype or registers a kind belongs on test/helpers/isolated-files.ts, where it gets a graph
// of its own; an e2e file sets the environment only through test/helpers/env.ts withEnv, which
// puts it back. This reads every shared file's text for those calls, so a new file cannot
// silently change what the files after it see.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_FILES } from '../helpers/isolated-files';

/** What changes the process for the files after it, by name. */
const PROCESS_CHANGES: Record<string, RegExp> = {
  'sets the environment': /process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)/,
  'deletes from the environment': /delete\s+process\.env/,
  'stubs the environment': /vi\.stubEnv\(/,
  'mocks a module': /vi\.(do)?[mM]ock\(/,
  'fakes the clock': /vi\.useFakeTimers\(/,
  "spies on a class's prototype": /vi\.spyOn\(\s*\w+\.prototype/,
  'registers a kind': /\bregister(?!LabKinds)\w*Kind\w*\(/,
};

/** The changes `text` makes (empty: it leaves the process as it found it). */
function processChanges(text: string): string[] {
  return Object.entries(PROCESS_CHANGES)
    .filter(([, re]) => re.test(text))
    .map(([what]) => what);
}

const ROOT = process.cwd();

/** The files under `dir` whose names end with `suffix`, as paths from the repository root with forward slashes. */
function testFiles(dir: string, suffix = '.test.ts'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(`${dir}/${e.name}`, suffix) : e.name.endsWith(suffix) ? [`${dir}/${e.name}`] : [],
  );
}

/** Each file that changes the process, with what it changes. */
function offenders(files: string[]): string[] {
  return files.flatMap((f) => {
    const changes = processChanges(readFileSync(join(ROOT, f), 'utf8'));
    return changes.length > 0 ? [`${f}: ${changes.join(', ')}`] : [];
  });
}

describe('the shared module graph', () => {
  it('holds no file that changes the process for the files after it', () => {
    const isolated = new Set(ISOLATED_FILES);
    const shared = ['test/shared', 'test/main', 'test/lint'].flatMap((d) => testFiles(d)).filter((f) => !isolated.has(f) && f !== 'test/lint/shared-graph.test.ts');
    expect(shared.length).toBeGreaterThan(100);
    expect(offenders(shared)).toEqual([]);
  });

  it('holds no e2e file that changes the process for the files after it', () => {
    const files = testFiles('test/e2e', '.e2e.ts');
    expect(files.length).toBeGreaterThan(30);
    expect(offenders(files)).toEqual([]);
  });

  it('recognises each change', () => {
    expect(processChanges("process.env.SPLATLAB_HOME = dir;")).toEqual(['sets the environment']);
    expect(processChanges("process.env['X'] = '1'")).toEqual(['sets the environment']);
    expect(processChanges("if (process.env.CI === 'true') {}")).toEqual([]);
    expect(processChanges('delete process.env.SPLATLAB_HOME;')).toEqual(['deletes from the environment']);
    expect(processChanges("vi.stubEnv('A', 'b')")).toEqual(['stubs the environment']);
    expect(processChanges("vi.mock('../x')")).toEqual(['mocks a module']);
    expect(processChanges('vi.useFakeTimers()')).toEqual(['fakes the clock']);
    expect(processChanges("vi.spyOn(Grader.prototype, 'grade')")).toEqual(["spies on a class's prototype"]);
    expect(processChanges("vi.spyOn(pool, 'run')")).toEqual([]);
    expect(processChanges('registerMainKind(fifth)')).toEqual(['registers a kind']);
    expect(processChanges('registerLabKinds()')).toEqual([]); // once per process, whoever calls it first
  });
});
