// Finds the Electron binary and whether a window can open here, without downloading anything
// unless asked. Output: the binary path or a one-line reason why the desktop window is not
// available (then the lab serves the same UI on a loopback URL).
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface ElectronProbe {
  binary: string | null;
  reason: string; // why there is no binary, or '' when there is one
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
  log('Downloading the Electron binary (first start)...');
  const result = spawnSync(process.execPath, [join(dir, 'install.js')], { stdio: 'inherit', timeout: 300_000 });
  const after = findElectron();
  if (after.binary) return after;
  return { binary: null, reason: `downloading Electron failed (exit ${result.status ?? 'timeout'}); check your network` };
}

/** Linux needs an X11 or Wayland display for a window; macOS and Windows always have one. */
export function displayAvailable(): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}
