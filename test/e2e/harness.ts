// End-to-end harness: starts `splatlab serve` as a child process and a headless Debian Chromium
// driven by playwright-core. With CI=true a missing browser fails the suite instead of skipping.
// One Chromium per flag set per worker process serves every file of that worker (the e2e files
// share a module graph per worker, vitest.e2e.config.ts): each file leases it, every page the
// file opens gets a browser context of its own (as Playwright's own browser.newPage does), and
// the lease's close() closes those contexts, not the browser. A launch cost about 0.7 CPU s per
// file (docs/DEVELOPING.md, "Test-suite time").
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
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

/** This worker's browsers, one per flag set, started on first use; gone from here when one disconnects. */
const browsers = new Map<string, Promise<Browser>>();

function sharedBrowser(webgpu: boolean): Promise<Browser> {
  const key = webgpu ? 'webgpu' : 'plain';
  const known = browsers.get(key);
  if (known) return known;
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ];
  if (webgpu) args.push('--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-webgpu-adapter=swiftshader');
  // playwright's launch() always starts from a fresh temporary profile (its own --user-data-dir).
  const launched = chromium.launch({ executablePath: CHROMIUM, args, headless: true });
  browsers.set(key, launched);
  launched.then(
    (b) => b.on('disconnected', () => browsers.delete(key)),
    () => browsers.delete(key),
  );
  return launched;
}

/** Closes this process's browsers (a script that leases one and then wants its process to end). */
export async function closeBrowsers(): Promise<void> {
  const all = [...browsers.values()];
  browsers.clear();
  await Promise.all(all.map((b) => b.then((x) => x.close()).catch(() => undefined)));
}

/**
 * A file's lease on this worker's Chromium: newPage opens a page in a fresh browser context (no
 * cookies, storage or cache from another page), close() closes the contexts this lease opened.
 * Everything else is the browser's own.
 */
export async function launchBrowser(options: { webgpu?: boolean } = {}): Promise<Browser> {
  const browser = await sharedBrowser(options.webgpu === true);
  const contexts: BrowserContext[] = [];
  const open = async (opts?: BrowserContextOptions): Promise<BrowserContext> => {
    const context = await browser.newContext(opts);
    contexts.push(context);
    return context;
  };
  const lease: Partial<Browser> = {
    newContext: open,
    newPage: async (opts?: BrowserContextOptions) => (await open(opts)).newPage(),
    close: async () => {
      await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => undefined)));
    },
  };
  return new Proxy(browser, {
    get: (target, prop) => {
      if (Object.hasOwn(lease, prop)) return lease[prop as keyof Browser];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
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
