// CommonJS packages loaded on first use, not at import: a cold command that reads no PNG and no
// zip (a `splatlab grade` whose photos come from the view cache) skips their loading, about 70 ms
// of CPU together (issue 40 item 3, docs/PERFORMANCE.md "Cold paths"). Output: each package's
// exports, the same object on every call. Invariant: synchronous, so callers keep their signatures.
import { createRequire } from 'node:module';
import type * as Fflate from 'fflate';
import type * as Pngjs from 'pngjs';

const load = createRequire(import.meta.url);
let png: typeof Pngjs | undefined;
let zip: typeof Fflate | undefined;

export function pngjs(): typeof Pngjs {
  return (png ??= load('pngjs') as typeof Pngjs);
}

export function fflate(): typeof Fflate {
  return (zip ??= load('fflate') as typeof Fflate);
}
