// App-level paths: the built UI and the package version. The repository root, tasks folder and
// shared data folder come from src/main/io/data-dir.ts and src/main/tasks/paths.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../io/data-dir';

export const uiRoot = (): string => join(repoRoot(), 'out', 'renderer');

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
