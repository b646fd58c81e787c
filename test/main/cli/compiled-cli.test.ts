// The compiled CLI (src/main/cli/compiled-cli.mjs, issue 29 item 9): `splatlab` starts from an
// esbuild bundle of the CLI named by a hash of the sources, reused while they are unchanged,
// rebuilt when one changes (the newest few kept), null when the sources do not compile; and the
// real `splatlab` command answers the same from the bundle as from the sources through tsx.
// The checkout's own bundle is never removed here: other test files run `splatlab` from it at the
// same time (removing it once made drain.test.ts miss a chunk mid-import); building is proven on
// temporary trees.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiledPoolWorker } from '../../../src/main/workers/compiled';
import { sourceHash } from '../../../src/main/io/source-hash.mjs';

interface CompiledCliModule {
  compiledCli(root: string): string | null;
}

const modulePath = join(process.cwd(), 'src', 'main', 'cli', 'compiled-cli.mjs');
const load = async (): Promise<CompiledCliModule> => (await import(pathToFileURL(modulePath).href)) as CompiledCliModule;

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'splatlab-compiled-cli-'));
  mkdirSync(join(root, 'src', 'main', 'cli'), { recursive: true });
  mkdirSync(join(root, 'src', 'shared'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{}');
  writeFileSync(join(root, 'src', 'shared', 'value.ts'), 'export const value: number = 1;\n');
  writeFileSync(join(root, 'src', 'main', 'cli', 'late.ts'), "import { value } from '../../shared/value';\nexport const late: number = value * 10;\n");
  writeFileSync(join(root, 'src', 'main', 'splatlab.ts'), "import { value } from '../shared/value';\nexport async function main(argv: string[]): Promise<number> {\n  const { late } = await import('./cli/late');\n  return value + late + argv.length;\n}\n");
  return root;
}

async function run(entry: string, argv: string[]): Promise<number> {
  const mod = (await import(pathToFileURL(entry).href)) as { main(argv: string[]): Promise<number> };
  return mod.main(argv);
}

describe('compiled CLI', () => {
  it('is reused while the sources are unchanged and rebuilt when one changes; lazy imports become chunks', async () => {
    const { compiledCli } = await load();
    const root = tree();
    const first = compiledCli(root);
    expect(first).not.toBeNull();
    expect(first).toContain(`cli-${sourceHash(root)}`);
    const made = statSync(first as string).mtimeMs;
    expect(compiledCli(root)).toBe(first);
    expect(statSync(first as string).mtimeMs).toBe(made);
    expect(await run(first as string, ['a'])).toBe(12);
    expect(readdirSync(join(first as string, '..')).length).toBeGreaterThan(1); // splatlab.mjs and a chunk

    writeFileSync(join(root, 'src', 'shared', 'value.ts'), 'export const value: number = 2;\n');
    const second = compiledCli(root);
    expect(second).not.toBe(first);
    expect(await run(second as string, [])).toBe(22);
    for (let v = 3; v <= 7; v++) {
      writeFileSync(join(root, 'src', 'shared', 'value.ts'), `export const value: number = ${v};\n`);
      expect(compiledCli(root)).not.toBeNull();
    }
    const kept = readdirSync(join(root, 'node_modules', '.cache', 'splatlab'));
    expect(kept).toHaveLength(4);
    expect(kept).toContain(`cli-${sourceHash(root)}`);
  });

  it('gives null (splatlab then runs the sources through tsx) when the CLI does not compile', async () => {
    const { compiledCli } = await load();
    const root = tree();
    writeFileSync(join(root, 'src', 'main', 'splatlab.ts'), 'export const = ;\n');
    expect(compiledCli(root)).toBeNull();
    expect(readdirSync(join(root, 'node_modules', '.cache', 'splatlab'))).toEqual([]);
  });

  it('runs the real splatlab from the bundle named as the pool worker\'s, answering as the sources do', () => {
    const cli = join(process.cwd(), 'src', 'main', 'cli', 'splatlab.mjs');
    const hash = sourceHash(process.cwd());
    const bundle = join(process.cwd(), 'node_modules', '.cache', 'splatlab', `cli-${hash}`);
    expect(compiledPoolWorker()).toContain(`pool-worker-${hash}.mjs`);
    const compiled = spawnSync(process.execPath, [cli, 'tools', '--json'], { encoding: 'utf8', env: { ...process.env, SPLATLAB_NO_COMPILED: '' } });
    const source = spawnSync(process.execPath, [cli, 'tools', '--json'], { encoding: 'utf8', env: { ...process.env, SPLATLAB_NO_COMPILED: '1' } });
    expect(compiled.status).toBe(0);
    expect(compiled.stdout).toBe(source.stdout);
    expect(existsSync(join(bundle, 'splatlab.mjs'))).toBe(true); // built by that start or an earlier one, to run from
    expect(compiled.stdout).toContain('add_gaussians');
  }, 120_000);
});
