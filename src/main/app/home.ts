// The lab's own data folder: free-play trajectories and study folders. SPLATLAB_HOME overrides
// the default ~/SplatLab, so tests and experimenters can point it anywhere.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function labHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.SPLATLAB_HOME ? resolve(env.SPLATLAB_HOME) : join(homedir(), 'SplatLab');
}
