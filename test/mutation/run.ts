// `npm run mutation -- --folder NAME [--sample PERCENT] [--fresh] [--concurrency N]`: runs Stryker
// (docs/MUTATION.md) on one folder of test/mutation/folders.ts with that folder's tests only, on the
// folder's reproducible line sample (test/mutation/sample.ts; --sample 100 is the census). Stryker mutates the AST
// (type annotations are never mutated), instruments every mutant at once and, with per-test
// coverage, runs each mutant only against the tests that reach it, so the mutant set and the score
// depend only on the commit. Output: reports/mutation/NAME-PERCENT.html and .json; an incremental file
// reports/mutation/NAME-PERCENT.incremental.json lets a rerun retest only what changed (--fresh ignores it).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutationFolders } from './folders';
import { sampleRanges } from './sample';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);

const name = opt('--folder');
const folder = name === undefined ? undefined : mutationFolders[name];
if (name === undefined || folder === undefined) {
  console.error(`npm run mutation -- --folder NAME: NAME is one of ${Object.keys(mutationFolders).join(', ')} (got ${name ?? 'nothing'})`);
  process.exit(2);
}
const concurrency = Number(opt('--concurrency') ?? '1');
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`--concurrency must be a positive integer (got ${opt('--concurrency')})`);
  process.exit(2);
}

const sample = Number(opt('--sample') ?? String(folder.sample));
if (!(sample > 0 && sample <= 100)) {
  console.error(`--sample must be a percentage in (0, 100] (got ${opt('--sample')})`);
  process.exit(2);
}
const listed = spawnSync('git', ['ls-files', '--', ...folder.mutate.map((g) => `:(glob)${g}`)], { cwd: root, encoding: 'utf8' });
const files = listed.stdout.split('\n').filter((f) => f.length > 0);
if (listed.status !== 0 || files.length === 0) {
  console.error(`no tracked sources match ${folder.mutate.join(' ')}`);
  process.exit(2);
}
const mutate = sample === 100 ? files : sampleRanges(files, root, sample);
console.log(`mutation: folder ${name}, ${files.length} files, ${sample === 100 ? 'census' : `sample ${sample} % (${mutate.length} lines)`}`);

const reports = join(root, 'reports', 'mutation');
mkdirSync(reports, { recursive: true });
const config = {
  $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate,
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants) would each need the whole folder's tests rerun; they are
  // left out and reported as ignored (docs/MUTATION.md).
  ignoreStatic: true,
  concurrency,
  timeoutMS: 20_000,
  timeoutFactor: 3,
  // The dry run is the folder's whole test list once, with coverage; on a loaded machine it can
  // take several minutes.
  dryRunTimeoutMinutes: 20,
  incremental: true,
  incrementalFile: join('reports', 'mutation', `${name}-${sample}.incremental.json`),
  force: argv.includes('--fresh'),
  reporters: ['html', 'json', 'clear-text', 'progress-append-only'],
  htmlReporter: { fileName: join('reports', 'mutation', `${name}-${sample}.html`) },
  jsonReporter: { fileName: join('reports', 'mutation', `${name}-${sample}.json`) },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 85, low: 70, break: null },
};
const configFile = join(reports, `${name}-${sample}.stryker.json`);
writeFileSync(configFile, JSON.stringify(config, null, 2));
const run = spawnSync('npx', ['stryker', 'run', configFile], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SPLATLAB_MUTATION_TESTS: folder.tests.join(',') },
});
process.exit(run.status ?? 1);
