// The kind folders `SPLATLAB_KINDS` names (./plugins.ts) and the path of each folder's halves;
// no registry here, so the renderer build's config (./vite-kinds.ts) can read the list cheaply.
// Input: the environment. Output: absolute folders and half paths. Invariant: a missing half is
// refused with one line naming the folder and the file.
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

/** The halves every kind folder holds, relative to the folder. */
export const KIND_HALVES = { shared: 'shared/kind.ts', main: 'main/manifest.ts', renderer: 'renderer/kind.ts' } as const;

/** The kind folders `SPLATLAB_KINDS` names (absolute, in order, each once). */
export function kindFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  const list = (env.SPLATLAB_KINDS ?? '').split(delimiter).map((s) => s.trim()).filter(Boolean).map((s) => resolve(s));
  return [...new Set(list)];
}

/** A folder's half, refused with one line when it is missing. */
export function kindHalf(folder: string, half: keyof typeof KIND_HALVES): string {
  const path = join(folder, KIND_HALVES[half]);
  if (!existsSync(path)) throw new Error(`SPLATLAB_KINDS: ${folder} has no ${KIND_HALVES[half]}`);
  return path;
}
