// The kinds' LabApi rows (docs/API.md; docs/ARCHITECTURE.md, "The composition root and task
// kinds"): each kind's own rows (src/shared/kinds/<kind>/api*.ts), one line per kind, composed into
// the lab's table by src/shared/api/lab.ts, which names no kind. Their handlers are listed in
// src/main/services/kind-handlers.ts.
// Invariant: row names are `<family>.<action>`, so no two kinds' rows collide.
import { relationMethods } from './relation/api';
import { searchMethods } from './search/api';
import { searchScoreMethods } from './search/api-scores';

export const kindMethods = {
  ...relationMethods,
  ...searchMethods,
  ...searchScoreMethods,
};
