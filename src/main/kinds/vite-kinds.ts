// The renderer build's view of `SPLATLAB_KINDS` (./plugins.ts): a Vite plugin that answers the
// virtual module `virtual:splatlab-kinds` with the shared and renderer halves of each listed kind
// folder, which src/renderer/kinds/registry.ts registers. Without the variable the module is an
// empty list, so the app's bundle holds only the lab's own kinds.
// Input: the environment at build time. Output: a Vite plugin. Invariant: the list is read once,
// when the build starts, from the same parser the CLI uses.
import type { Plugin } from 'vite';
import { kindFolders, kindHalf } from './folders';

const ID = 'virtual:splatlab-kinds';
const RESOLVED = `\0${ID}`;

/** The module's source for the given kind folders (exported for the test). */
export function kindsModuleSource(folders: readonly string[]): string {
  const lines = folders.flatMap((f, i) => [
    `import shared${i} from ${JSON.stringify(kindHalf(f, 'shared'))};`,
    `import renderer${i} from ${JSON.stringify(kindHalf(f, 'renderer'))};`,
  ]);
  const list = folders.map((_f, i) => `{ shared: shared${i}, renderer: renderer${i} }`).join(', ');
  return [...lines, `export default [${list}];`, ''].join('\n');
}

export function splatlabKinds(env: NodeJS.ProcessEnv = process.env): Plugin {
  const folders = kindFolders(env);
  return {
    name: 'splatlab-kinds',
    resolveId: (id) => (id === ID ? RESOLVED : null),
    load: (id) => (id === RESOLVED ? kindsModuleSource(folders) : null),
  };
}
