// Where the debugger finds splat files and how much a scene may take: the watched captures
// folders (SPLATLAB_CAPTURES, and <home>/captures), a file named on the command line
// (SPLATLAB_DEBUG_OPEN, set by `splatlab start --open FILE`), chunked uploads staged on disk
// under <home>/uploads/debug/, and the memory budget (SPLATLAB_DEBUG_MEMORY_MB, default half
// the machine's memory). Inputs: the lab home, the environment. Invariant: an upload never grows
// past its declared size, chunks arrive in order, and a path opened by name stays inside a
// watched folder or the lab home.
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const MiB = 1024 * 1024;
/** One upload chunk: 4 MiB of file, about 5.6 MB of base64 (under the LabApi message limit). */
export const DEBUG_CHUNK_BYTES = 4 * MiB;
const SPLAT_FILE = /\.(ply|spz|sog|splat)$|(^|[/\\])meta\.json$/i;

export function debugMemoryBudget(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.SPLATLAB_DEBUG_MEMORY_MB);
  return Number.isFinite(mb) && mb > 0 ? Math.floor(mb * MiB) : Math.floor(totalmem() / 2);
}

export function captureFolders(home: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const folders = [env.SPLATLAB_CAPTURES, join(home, 'captures')].filter((f): f is string => !!f).map((f) => resolve(f));
  const open = env.SPLATLAB_DEBUG_OPEN;
  if (open) folders.unshift(dirname(resolve(open)));
  return [...new Set(folders)];
}

export function suggestedFile(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.SPLATLAB_DEBUG_OPEN ? resolve(env.SPLATLAB_DEBUG_OPEN) : null;
}

/** Supported-looking files in the watched folders (two levels deep: SOG folders hold meta.json). */
export function listCaptureFiles(folders: readonly string[]): { path: string; bytes: number }[] {
  const out: { path: string; bytes: number }[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = join(dir, e.name);
      if (e.isDirectory() && depth > 0) walk(full, depth - 1);
      else if (e.isFile() && SPLAT_FILE.test(full)) out.push({ path: full, bytes: statSync(full).size });
    }
  };
  for (const f of folders) walk(f, 1);
  return out.sort((a, b) => a.path.localeCompare(b.path)).slice(0, 500);
}

/** The path if it lies inside one of `roots`, else null. */
export function insideRoots(path: string, roots: readonly string[]): string | null {
  const full = resolve(path);
  for (const root of roots) {
    const rel = relative(resolve(root), full);
    if (rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..')) return full;
  }
  return null;
}

export interface DebugUpload {
  id: string;
  name: string;
  path: string;
  bytes: number;
  received: number;
  /** Aborts a read of this upload in progress (debug.upload.cancel). */
  abort: AbortController;
}

export class DebugUploads {
  private readonly open = new Map<string, DebugUpload>();

  constructor(private readonly root: string, private readonly budget: () => number) {}

  begin(name: string, bytes: number): DebugUpload {
    const budget = this.budget();
    if (bytes > budget) throw new Error(`${name} is ${(bytes / MiB).toFixed(1)} MiB, over the debugger's memory budget of ${(budget / MiB).toFixed(0)} MiB (set SPLATLAB_DEBUG_MEMORY_MB to change it)`);
    const id = randomUUID();
    const dir = join(this.root, id);
    mkdirSync(dir, { recursive: true });
    // Only the base name is kept: the reader detects by content and uses the name for .splat.
    const safe = basename(name).replace(/[^A-Za-z0-9._-]+/g, '_') || 'upload.bin';
    const upload = { id, name, path: join(dir, safe), bytes, received: 0, abort: new AbortController() };
    this.open.set(id, upload);
    return upload;
  }

  get(id: string): DebugUpload {
    const u = this.open.get(id);
    if (!u) throw new Error(`no open debug upload '${id}' (it was cancelled, opened already, or the lab restarted)`);
    return u;
  }

  put(id: string, offset: number, base64: string): DebugUpload {
    const u = this.get(id);
    if (offset !== u.received) throw new Error(`upload ${u.name}: chunk at byte ${offset}, expected ${u.received} (chunks arrive in order)`);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw new Error(`upload ${u.name}: the chunk is not base64`);
    const data = Buffer.from(base64, 'base64');
    if (u.received + data.byteLength > u.bytes) throw new Error(`upload ${u.name}: ${u.received + data.byteLength} bytes sent, more than the ${u.bytes} declared`);
    appendFileSync(u.path, data);
    u.received += data.byteLength;
    return u;
  }

  /** The staged file of a complete upload. */
  complete(id: string): DebugUpload {
    const u = this.get(id);
    if (u.received !== u.bytes || !existsSync(u.path)) throw new Error(`upload ${u.name} is incomplete: ${u.received} of ${u.bytes} bytes arrived`);
    return u;
  }

  remove(id: string): boolean {
    const u = this.open.get(id);
    if (!u) return false;
    u.abort.abort();
    this.open.delete(id);
    rmSync(dirname(u.path), { recursive: true, force: true });
    return true;
  }
}
