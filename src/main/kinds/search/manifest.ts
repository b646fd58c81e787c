// Search's main manifest (src/main/kinds/manifests.ts; docs/ARCHITECTURE.md, "The composition root
// and task kinds"): its module, Inspect scorer, study part (export and paper tables), the handlers
// of its LabApi rows and its `splatlab search` command, in one object.
import type { MainKindManifest } from '../manifest';
import { refuseDuringSession } from '../../services/session-lock';
import { searchMain } from './kind';
import { searchStudyPart } from './study/export';
import { searchScorer } from './study/scorer';
import { createSearchHandlers } from './service/handlers';
import { createSearchScoreHandlers } from './service/scores';

export const searchManifest: MainKindManifest = {
  module: searchMain,
  scorer: searchScorer,
  studyPart: searchStudyPart,
  // Annotations carry answers: like authoring, refused while a participant session runs.
  handlers: (ctx) => ({ ...refuseDuringSession(createSearchHandlers(ctx), ctx.home), ...createSearchScoreHandlers(ctx) }),
  commands: {
    search: { summary: 'search tasks (view search in rooms): search generate|check|baseline|filter|goals|export|annotation-task|judge|make-prop', load: async () => (await import('./cli')).command },
  },
};
