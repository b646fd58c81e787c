#!/usr/bin/env node
// `npm test`: the whole suite in phases that keep both cores of the 2-core CI machine busy
// (docs/DEVELOPING.md, "Test-suite time"). 1: the UI build, then the one e2e file that compares
// the lab's clock with its own within 1 s (person-time, mostly the script's own sleeps), then the
// rest of the e2e suite (two files at a time, about 1.7 cores busy), beside the type checks and the
// lint at nice 10, which fill what the e2e files leave and yield whenever a server or page needs the
// CPU. 2: the unit suite. The e2e and unit suites are both CPU-bound: side by side (the unit suite at
// nice 10) they took 857-917 s, one after the other about 800-870 s (docs/PERFORMANCE.md,
// 2026-12-06 03:12-05:14); person-time, run last on its own, left both cores idle for its 25-30 s.
// Input: none. Output: each command's lines prefixed with its name, then each phase's wall time,
// and last a recap of every failed command's failure lines (CI shows only the tail of a long log);
// the exit code is 0 only if every command exited 0. Invariant: a phase starts only when the one
// before it passed, and every command of a phase runs to its end.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';

const VITEST = ['node_modules/vitest/vitest.mjs', 'run'];
const E2E = [...VITEST, '--config', 'vitest.e2e.config.ts'];
/** The type checks' and the lint's niceness beside the e2e suite, which leaves about 0.3 of 2 cores idle. */
const CHECKS_NICE = 10;
/** The lines of a failed command worth repeating at the end: vitest's failed files and tests,
 * its assertion messages and the source line each points at, and its summary counts. */
const FAILURE_LINE = /(^|\s)(FAIL|×|✗)\s|Failed Tests|Error:|Expected|Received|expected |❯ .*:\d+:\d+|^\s*\d+\s*\|.*|Test Files|Tests\s/;
/** At most this many lines per failed command in the recap. */
const RECAP_LINES = 120;
/** A failed command's last lines, recapped when none of its lines looks like vitest's failures. */
const TAIL_LINES = 40;
/** Each failed command's recap lines, in the order the commands ended. */
const recaps = [];

/** Runs one command (argv, no shell) with its output prefixed; resolves true on exit code 0. */
function run(name, argv, nice = 0) {
  const started = Date.now();
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
  // Set before the child starts its own workers, which inherit it.
  if (nice && child.pid !== undefined) {
    try {
      setPriority(child.pid, nice);
    } catch {
      // A platform without priorities runs it at the same one: slower, never wrong.
    }
  }
  const failing = [];
  const tail = [];
  const keep = (line) => {
    // eslint-disable-next-line no-control-regex -- vitest's colour codes, stripped to match and to read
    const plain = line.replace(/\u001b\[[0-9;]*m/g, '');
    if (FAILURE_LINE.test(plain)) failing.push(plain);
    tail.push(plain);
    if (tail.length > TAIL_LINES) tail.shift();
  };
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (line) => {
      keep(line);
      process.stdout.write(`[${name}] ${line}\n`);
    });
  return new Promise((resolve) => {
    child.on('error', (e) => process.stdout.write(`[${name}] ${e.message}\n`));
    child.on('close', (code, signal) => {
      const verdict = code === 0 ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`[${name}] ${verdict} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      if (code !== 0) {
        // vitest's own failure block when it printed one (a passing test's logged "Error:" lines come before it).
        const block = failing.findIndex((l) => l.includes('Failed Tests'));
        // A command that is not vitest (the type checks, the lint): its last lines.
        const lines = block >= 0 ? failing.slice(block) : failing.length > 0 ? failing : tail;
        recaps.push({ name, verdict, lines: lines.length > RECAP_LINES ? [...lines.slice(0, RECAP_LINES - 1), `... and ${lines.length - RECAP_LINES + 1} more`] : lines });
      }
      resolve(code === 0);
    });
  });
}

/** Runs a lane's commands one after another, stopping at the first that fails. */
async function lane(commands) {
  for (const [name, argv, nice] of commands) if (!(await run(name, argv, nice))) return false;
  return true;
}

/** Runs lanes side by side; true when every lane passed. */
async function phase(title, lanes) {
  const started = Date.now();
  process.stdout.write(`\n== ${title}\n`);
  const ok = (await Promise.all(lanes.map(lane))).every(Boolean);
  process.stdout.write(`== ${title}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return ok;
}

const node = process.execPath;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const ok =
  (await phase('UI build, person-time and e2e, beside the type checks and the lint at nice 10', [
    [
      ['build-ui', [node, 'src/main/cli/splatlab.mjs', 'build-ui']],
      ['e2e-alone', [node, ...E2E, '--project', 'e2e-alone']],
      ['e2e', [node, ...E2E, '--project', 'e2e']],
    ],
    [['typecheck', [npm, 'run', 'typecheck'], CHECKS_NICE]],
    [['lint', [npm, 'run', 'lint'], CHECKS_NICE]],
  ])) && (await phase('unit', [[['unit', [node, ...VITEST]]]]));
for (const { name, verdict, lines } of recaps) {
  process.stdout.write(`\n== recap: ${name} ${verdict}\n`);
  for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
}
process.exit(ok ? 0 : 1);
