// The six procedural objects of the benchmark, by name.
// Output: validated ProceduralObject definitions. Invariant: keys equal each object's `name`.
import type { ProceduralObject } from '../primitives';
import { mushroom } from './mushroom';
import { robot } from './robot';
import { rocket } from './rocket';
import { snowman } from './snowman';
import { table } from './table';
import { tree } from './tree';

export const PROCEDURAL_OBJECTS: Readonly<Record<string, ProceduralObject>> = Object.freeze({
  snowman, mushroom, table, rocket, tree, robot,
});

export const PROCEDURAL_OBJECT_NAMES: readonly string[] = Object.keys(PROCEDURAL_OBJECTS);

export function getObject(name: string): ProceduralObject {
  const obj = Object.hasOwn(PROCEDURAL_OBJECTS, name) ? PROCEDURAL_OBJECTS[name] : undefined;
  if (!obj) throw new Error(`unknown procedural object '${name}' (known: ${PROCEDURAL_OBJECT_NAMES.join(', ')})`);
  return obj;
}
