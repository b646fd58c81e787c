// The lab's own data folder: free-play trajectories and study folders. SPLATLAB_HOME overrides
// the default ~/SplatLab, so tests and experimenters can point it anywhere.
// The home also keeps the browser-mode session token (<home>/token, mode 0600): `serve` and
// `start` reuse it, so a tab opened before a restart (a crash, kill -9) reconnects by itself.
// Invariant: the token file is readable by its owner only; a looser file is tightened first.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { plainFsError } from './fs-errors';

export function labHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.SPLATLAB_HOME ? resolve(env.SPLATLAB_HOME) : join(homedir(), 'SplatLab');
}

const TOKEN_FILE = 'token';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

export function tokenPath(home: string): string {
  return join(home, TOKEN_FILE);
}

function readToken(path: string): string | null {
  try {
    const token = readFileSync(path, 'utf8').trim();
    return TOKEN_SHAPE.test(token) ? token : null;
  } catch {
    return null;
  }
}

/**
 * The home's stable session token: read from <home>/token, or made (32 random bytes) and
 * written there with mode 0600. `fresh` replaces it (old tabs then need the new URL).
 */
export function homeToken(home: string, fresh = false): string {
  const path = tokenPath(home);
  const known = fresh ? null : readToken(path);
  if (known) {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    return known;
  }
  const token = randomBytes(32).toString('base64url');
  writableHome(() => {
    mkdirSync(home, { recursive: true });
    // writeFileSync keeps the mode of a file that exists: tighten it before the token goes in.
    if (existsSync(path)) chmodSync(path, 0o600);
    writeFileSync(path, `${token}\n`, { mode: 0o600 });
  });
  return token;
}

/**
 * Runs a write into the home; a file-system failure (a read-only disk, a home that is a file) is
 * one plain line that names the setting to change, never an errno name or a path (issue 38).
 */
export function writableHome<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw new Error(`the lab home cannot be written (${plainFsError(error)}): set SPLATLAB_HOME to a folder this user can write`);
  }
}

const PORT_FILE = 'serve-port';

/** The port `serve` used last for this home (a restart takes it again, so old tabs find it). */
export function lastServePort(home: string): number | null {
  try {
    const port = Number(readFileSync(join(home, PORT_FILE), 'utf8').trim());
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
  } catch {
    return null;
  }
}

export function rememberServePort(home: string, port: number): void {
  writableHome(() => {
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, PORT_FILE), `${port}\n`);
  });
}
