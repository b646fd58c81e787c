// Uploading an import from the page: picks the files a NeRF-Synthetic import reads (the
// transforms file the CLI would choose and the frames it lists), then sends them one by one in
// base64 chunks under the LabApi message limit into main's upload staging folder.
// Inputs: File objects with their folder-relative paths. Outputs: author.upload.* calls.
// Invariant: paths sent are relative to the capture folder (its top folder name dropped), so main
// resolves them exactly as `splatlab import nerf DIR` resolves them inside DIR.
import type { LabApi } from '../../shared/api/lab';
import { UPLOAD_CHUNK_BYTES, type UploadKind } from '../../shared/api/author';

export interface PickedFile {
  path: string; // relative to the chosen folder, '/'-separated
  file: Blob;
}

/** Folder-relative paths of picked files (a folder picker prefixes the folder's own name). */
export function relativePaths(files: readonly { name: string; webkitRelativePath?: string }[]): string[] {
  const full = files.map((f) => (f.webkitRelativePath ? f.webkitRelativePath : f.name));
  const tops = new Set(full.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  const strip = tops.size === 1 && !tops.has('');
  return full.map((p) => (strip ? p.slice(p.indexOf('/') + 1) : p));
}

/** transforms_train.json when present, else the first transforms_*.json by name (as the CLI). */
export function chooseTransforms(paths: readonly string[]): string | null {
  const top = paths.filter((p) => /^transforms_.*\.json$/.test(p)).sort();
  return top.includes('transforms_train.json') ? 'transforms_train.json' : (top[0] ?? null);
}

/** The frame files a transforms file names (".png" added when a path has no extension). */
export function framePaths(transformsText: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(transformsText);
  } catch {
    throw new Error('the transforms file is not valid JSON');
  }
  const frames = (json as { frames?: { file_path?: unknown }[] }).frames;
  if (!Array.isArray(frames)) throw new Error('the transforms file has no frames list');
  return frames.map((f) => {
    if (typeof f.file_path !== 'string') throw new Error('a frame has no file_path');
    const p = f.file_path.replace(/^\.\//, '');
    return /\.[A-Za-z0-9]+$/.test(p.slice(p.lastIndexOf('/') + 1)) ? p : `${p}.png`;
  });
}

/** The files of a NeRF-Synthetic import among the picked ones; throws naming what is missing. */
export function nerfFiles(picked: readonly PickedFile[], transformsText: string, transformsPath: string): PickedFile[] {
  const byPath = new Map(picked.map((f) => [f.path, f]));
  const wanted = framePaths(transformsText);
  const missing = wanted.filter((p) => !byPath.has(p));
  if (missing.length) throw new Error(`missing ${missing.length} of ${wanted.length} frame images (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''})`);
  return [byPath.get(transformsPath) as PickedFile, ...wanted.map((p) => byPath.get(p) as PickedFile)];
}

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Sends files into a new upload and returns its id; `progress(done, total)` counts bytes. */
export async function uploadFiles(api: LabApi, kind: UploadKind, files: readonly PickedFile[], progress?: (done: number, total: number) => void): Promise<string> {
  const { uploadId } = await api.call('author.upload.begin', { kind });
  const total = files.reduce((s, f) => s + f.file.size, 0);
  let done = 0;
  try {
    for (const f of files) {
      const bytes = new Uint8Array(await f.file.arrayBuffer());
      for (let at = 0; at === 0 || at < bytes.length; at += UPLOAD_CHUNK_BYTES) {
        const chunk = bytes.subarray(at, at + UPLOAD_CHUNK_BYTES);
        await api.call('author.upload.put', { uploadId, path: f.path, data: toBase64(chunk), append: at > 0 });
        done += chunk.length;
        progress?.(done, total);
      }
    }
  } catch (err) {
    await api.call('author.upload.cancel', { uploadId }).catch(() => undefined);
    throw err;
  }
  return uploadId;
}
