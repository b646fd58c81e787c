// End-to-end harness: starts `splatlab serve` as a child process and a headless Debian Chromium
// driven by playwright-core. With CI=true a missing browser fails the suite instead of skipping.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { Grader } from '../../src/main/grader/grader';
import { buildTestTask } from '../helpers/test-task';

export const CHROMIUM = process.env.SPLATLAB_CHROMIUM ?? '/usr/bin/chromium';
export const RESULTS_DIR = join(process.cwd(), 'test-results');
mkdirSync(RESULTS_DIR, { recursive: true });

/** True when the browser is missing and the run may skip (never under CI=true). */
export function browserMissing(): boolean {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI === 'true') throw new Error(`CI=true but no browser at ${CHROMIUM}: install Debian's chromium`);
  return true;
}

export async function launchBrowser(options: { webgpu?: boolean } = {}): Promise<Browser> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ];
  if (options.webgpu) args.push('--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-webgpu-adapter=swiftshader');
  // playwright's launch() always starts from a fresh temporary profile (its own --user-data-dir).
  return chromium.launch({ executablePath: CHROMIUM, args, headless: true });
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function startServe(extraArgs: string[] = [], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['src/main/cli/splatlab.mjs', 'serve', '--port', '0', ...extraArgs], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not print its URL in time:\n${log}`)), 90_000);
    const onData = (data: Buffer) => {
      log += data.toString();
      const match = /serving at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          child,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${log}`));
    });
  });
}

export interface TestLabOptions {
  /** Adds to the tasks folder before the lab starts (more kinds' tasks, authored parts). */
  prepare?: (tasksDir: string) => void;
  /** More environment for the serve process. */
  env?: Record<string, string>;
}

/**
 * A lab over the 64x64 test tasks: a fresh tasks folder and home under a temp folder named
 * `prefix`, and `splatlab serve` on the CPU with LPIPS off (the play and study suites share it).
 */
export async function startTestLab(prefix: string, opts: TestLabOptions = {}): Promise<{ serve: ServeProcess; home: string; tasksDir: string }> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const tasksDir = join(root, 'tasks');
  const home = join(root, 'home');
  await buildTestTask(tasksDir, { size: 64, grader: await Grader.create({ lpipsDir: null }) });
  opts.prepare?.(tasksDir);
  const serve = await startServe(['--device', 'cpu'], { ...opts.env, SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
  return { serve, home, tasksDir };
}
