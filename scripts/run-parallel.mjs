#!/usr/bin/env node
// Runs shell commands side by side and fails if any fails (package.json's `typecheck` and `test`:
// the three type checks and the lint are single-threaded, so on the 2-core CI machine two at a
// time take about half the wall time; docs/DEVELOPING.md, "Test-suite time"). Input: the commands,
// one argument each. Output: each command's output in one block when it ends (never interleaved),
// then the exit code: 0 only if every command exited 0. Invariant: every command runs to its end.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs "<command>" ["<command>" ...]');
  process.exit(2);
}

const results = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
        const chunks = [];
        child.stdout.on('data', (d) => chunks.push(d));
        child.stderr.on('data', (d) => chunks.push(d));
        child.on('error', (e) => chunks.push(Buffer.from(`${e.message}\n`)));
        child.on('close', (code, signal) => {
          const status = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`;
          process.stdout.write(`> ${command}: ${status} in ${((Date.now() - started) / 1000).toFixed(1)} s\n${Buffer.concat(chunks).toString()}`);
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
