// Finds the Electron binary and whether a window can open here, without downloading anything
// unless asked. Output: the binary path or a one-line reason why the desktop window is not
// available (then the lab serves the same UI on a loopback URL). The lab itself runs on Node 20;
// Electron 45's first-run downloader declares Node >= 22.12, so on an older Node the reason says
// exactly that and how to get the window (docs/DEVELOPING.md, "The desktop app").
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface ElectronProbe {
  binary: string | null;
  reason: string; // why there is no binary, or '' when there is one
}

/** `a >= b` for dotted versions ('22.12.0'); missing parts count as 0. */
export function versionAtLeast(a: string, b: string): boolean {
  const pa = a.replace(/^v/, '').split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.replace(/^v/, '').split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** The lowest Node a package's `engines.node` accepts ('>= 22.12.0' -> '22.12.0'), or null. */
export function minimumNode(enginesNode: string | undefined): string | null {
  const m = /^\s*>=?\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(enginesNode ?? '');
  return m ? m[1] : null;
}

/**
 * Why this Node cannot run Electron's downloader, in one line with the fix, or null when it can.
 * Inputs: the electron package's version and engines.node, and this Node's version.
 */
export function downloaderProblem(electronVersion: string, enginesNode: string | undefined, nodeVersion: string): string | null {
  const min = minimumNode(enginesNode);
  if (!min || versionAtLeast(nodeVersion, min)) return null;
  return `Electron ${electronVersion} downloads its binary with a tool that needs Node ${min} or newer, and this is Node ${nodeVersion.replace(/^v/, '')}: install Node 22 LTS (or newer) to get the desktop window`;
}

function electronPackageDir(): string | null {
  try {
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/** The installed binary, if Electron's package has one (path.txt names it inside dist/). */
export function findElectron(): ElectronProbe {
  const dir = electronPackageDir();
  if (!dir) return { binary: null, reason: 'the electron package is not installed' };
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return { binary: null, reason: 'the Electron binary has not been downloaded yet' };
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { binary, reason: '' } : { binary: null, reason: `the Electron binary is missing (${binary})` };
}

/**
 * Electron 45+ downloads its binary on first use rather than at install time. Fetch it now unless
 * ELECTRON_SKIP_BINARY_DOWNLOAD is set (CI and offline machines).
 */
export function ensureElectron(log: (line: string) => void): ElectronProbe {
  const found = findElectron();
  if (found.binary) return found;
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return { binary: null, reason: `${found.reason} (ELECTRON_SKIP_BINARY_DOWNLOAD is set)` };
  const dir = electronPackageDir();
  if (!dir) return found;
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string; engines?: { node?: string } };
  const tooOld = downloaderProblem(pkg.version ?? '?', pkg.engines?.node, process.version);
  if (tooOld) return { binary: null, reason: tooOld };
  log('Downloading the Electron binary (first start)...');
  const result = spawnSync(process.execPath, [join(dir, 'install.js')], { stdio: ['ignore', 'inherit', 'pipe'], timeout: 300_000, encoding: 'utf8' });
  const after = findElectron();
  if (after.binary) return after;
  const why = (result.stderr ?? '').trim().split('\n').filter((l) => l.trim()).pop() ?? (result.status === null ? 'it timed out after 5 minutes' : `exit ${result.status}`);
  return { binary: null, reason: `downloading Electron failed (${why.slice(0, 200)}): check the network or a proxy, or set ELECTRON_MIRROR to a reachable mirror, then run npm start again` };
}

/** Linux needs an X11 or Wayland display for a window; macOS and Windows always have one. */
export function displayAvailable(): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}
