// The relation kind's main manifest (src/main/kinds/manifests.ts; docs/ARCHITECTURE.md, "The
// composition root and task kinds"): its module, Inspect scorer, study part (paper tables), the
// handlers of its LabApi rows and its `splatlab relation` command, in one object.
import type { MainKindManifest } from '../manifest';
import { relationMain } from './kind';
import { relationStudyPart } from './study/paper';
import { relationScorer } from './study/scorer';
import { createRelationHandlers } from './service/handlers';

export const relationManifest: MainKindManifest = {
  module: relationMain,
  scorer: relationScorer,
  studyPart: relationStudyPart,
  handlers: (ctx) => createRelationHandlers(ctx),
  commands: {
    relation: { summary: 'spatial-relation datasets (SpaRRTa-style): relation generate|check|export|import|sheets|tasks|block', load: async () => (await import('./cli')).command },
  },
};
