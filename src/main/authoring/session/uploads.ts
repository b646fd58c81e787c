// Upload staging for imports from a browser page: files arrive one by one (base64, in chunks under
// the LabApi message limit) into a private folder per upload under the lab home, then the import
// reads that folder exactly as the CLI reads a folder on disk.
// Inputs: upload ids, relative paths (already checked by the LabApi schema), base64 data.
// Outputs: files under <home>/uploads/<id>/. Invariant: every write stays inside its upload's
// folder (paths are re-checked here), and an upload never grows past MAX_UPLOAD_BYTES.
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { UploadKind } from '../../../shared/api/author';

export const MAX_UPLOAD_BYTES = 2 * 1024 ** 3;

export interface Upload {
  id: string;
  kind: UploadKind;
  dir: string;
  bytes: number;
}

export class Uploads {
  private readonly open = new Map<string, Upload>();

  constructor(private readonly root: string) {}

  begin(kind: UploadKind): Upload {
    const id = randomUUID();
    const dir = join(this.root, id);
    mkdirSync(dir, { recursive: true });
    const upload = { id, kind, dir, bytes: 0 };
    this.open.set(id, upload);
    return upload;
  }

  get(id: string): Upload {
    const u = this.open.get(id);
    if (!u) throw new Error(`no open upload '${id}' (it finished, was cancelled, or the lab restarted)`);
    return u;
  }

  /** Writes (or appends to) one file; returns the file's size afterwards. */
  put(id: string, path: string, base64: string, append = false): number {
    const u = this.get(id);
    const target = resolve(u.dir, path);
    const rel = relative(u.dir, target);
    if (rel === '' || rel.startsWith('..') || rel.split(sep).includes('..')) throw new Error(`upload path '${path}' leaves the upload folder`);
    const data = Buffer.from(base64, 'base64');
    if (u.bytes + data.byteLength > MAX_UPLOAD_BYTES) throw new Error(`the upload would exceed ${MAX_UPLOAD_BYTES / 1024 ** 3} GiB`);
    mkdirSync(dirname(target), { recursive: true });
    if (append && existsSync(target)) appendFileSync(target, data);
    else writeFileSync(target, data);
    u.bytes += data.byteLength;
    return statSync(target).size;
  }

  /** The file of a .ply upload (exactly one file must have arrived). */
  singleFile(id: string): string {
    const u = this.get(id);
    const files = readdirSync(u.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    if (files.length !== 1) throw new Error(`a .ply upload holds exactly one file (got ${files.length})`);
    return join(files[0].parentPath, files[0].name);
  }

  remove(id: string): boolean {
    const u = this.open.get(id);
    if (!u) return false;
    this.open.delete(id);
    rmSync(u.dir, { recursive: true, force: true });
    return true;
  }

  /** remove, the folder deleted on libuv's threads (a capture's hundreds of files never hold the event loop). */
  async discard(id: string): Promise<void> {
    const u = this.open.get(id);
    if (!u) return;
    this.open.delete(id);
    await rm(u.dir, { recursive: true, force: true });
  }
}
