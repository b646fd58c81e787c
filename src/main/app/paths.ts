// App-level paths: the built UI and the package version. The repository root, tasks folder and
// shared data folder come from src/main/io/data-dir.ts and src/main/tasks/paths.ts.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from '../io/data-dir';

/** The built renderer; SPLATLAB_UI_ROOT overrides it (tests serve a small stand-in folder). */
export const uiRoot = (env: NodeJS.ProcessEnv = process.env): string => (env.SPLATLAB_UI_ROOT ? resolve(env.SPLATLAB_UI_ROOT) : join(repoRoot(), 'out', 'renderer'));

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
