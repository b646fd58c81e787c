// What a fourth kind needed (issue 23 item 2): the files of test/fixtures/kinds/brightest, one
// per part and runtime, and nothing in src/ (the lab's shared machinery) naming it; it reaches the
// lab only through SPLATLAB_KINDS (src/main/kinds/plugins.ts, src/main/kinds/vite-kinds.ts). A
// kind kept in the lab instead adds the same folders under src/<runtime>/kinds/<kind>/ and one
// line in each runtime's registry.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const FIXTURE = join(ROOT, 'test', 'fixtures', 'kinds', 'brightest');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

describe('the fourth kind', () => {
  it('is these files, one folder per runtime, and nothing else', () => {
    expect(walk(FIXTURE).map((f) => relative(FIXTURE, f)).sort()).toEqual([
      'main/cli.ts', // its own command: brightest oracle
      'main/kind.ts', // its main module: load, summary, image, live episode, resume through the one replay; its scorer
      'main/manifest.ts', // its main manifest: module, scorer, study part, command
      'main/study/paper.ts', // its study part: a table of the paper
      'renderer/BrightestPlayView.vue', // the play view
      'renderer/kind.ts', // the renderer module (play view)
      'shared/kind.ts', // spec, tool, rules, trajectory fields, prompts, score unit
      'tasks.ts', // the tests' task files
    ]);
  });

  it('needed no line in the lab\'s shared machinery: nothing in src names it', () => {
    const naming = walk(join(ROOT, 'src')).filter((f) => /\.(ts|vue|mjs)$/.test(f) && /brightest/i.test(readFileSync(f, 'utf8')));
    expect(naming.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('registers through one hook per runtime', () => {
    const hooks: [string, RegExp][] = [
      ['src/shared/kinds/registry.ts', /export function registerKind\(/],
      ['src/main/kinds/manifests.ts', /export function registerMainManifest\(/],
      ['src/renderer/kinds/registry.ts', /for \(const k of bundledKinds\)/],
    ];
    for (const [file, hook] of hooks) expect(readFileSync(join(ROOT, file), 'utf8'), file).toMatch(hook);
  });

  // Copied into the lab's own folders (src/<runtime>/kinds/brightest/), the fixture passes the lint
  // as it stands there, layers, kind names and the components-through-stores rule included (issue 39).
  it('passes the lint once copied into src/<runtime>/kinds/', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const copied = walk(FIXTURE).filter((f) => /^(shared|main|renderer)\//.test(relative(FIXTURE, f)));
    const problems: string[] = [];
    for (const file of copied) {
      const [runtime, ...rest] = relative(FIXTURE, file).split('/');
      const [result] = await eslint.lintText(readFileSync(file, 'utf8'), { filePath: join(ROOT, 'src', runtime, 'kinds', 'brightest', ...rest) });
      problems.push(...result.messages.map((m) => `${runtime}/${rest.join('/')}:${m.line} ${m.ruleId}: ${m.message}`));
    }
    expect(copied).toHaveLength(7);
    expect(problems).toEqual([]);
  });
});
