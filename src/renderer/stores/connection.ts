// The lab connection as components reach it (docs/ARCHITECTURE.md, "Components reach the API
// through stores"): the LabApi handle and the link state that main.ts provides. A component takes
// the handle here and passes it to store actions, which make every call; no .vue file imports the
// API client or calls it (eslint.config.js and test/lint/vue-stores.test.ts).
// Output: the injected LabApi (undefined: the page has no connection) and the Link (null: none).
// Invariant: only setup functions call these (they use Vue's inject).
import { inject } from 'vue';
import type { LabApi } from '../../shared/api/lab';
import { LAB_KEY, LINK_KEY } from '../api/client';
import type { Link } from '../api/link';

/** This window's LabApi, for store actions (undefined when the page has no connection). */
export function useLabApi(): LabApi | undefined {
  return inject(LAB_KEY, undefined);
}

/** This window's connection state (null in a component tree without one, e.g. a unit test). */
export function useLink(): Link | null {
  return inject(LINK_KEY, null);
}
