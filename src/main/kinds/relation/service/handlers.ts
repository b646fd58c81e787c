// Handlers of the relation LabApi rows (src/shared/kinds/relation/api.ts): a study's relation trials
// scored from its logs (src/main/kinds/relation/study/trials.ts) and summarised
// (src/shared/kinds/relation/results.ts). Refused while a participant session runs (hidden truth).
import type { relationMethods } from '../../../../shared/kinds/relation/api';
import { summariseRelation } from '../../../../shared/kinds/relation/results';
import { summariseStudy } from '../../../../shared/kinds/relation/study-summary';
import { studyRelationTrials } from '../study/trials';
import { relationCsv } from '../log-trials';
import { StudyStore } from '../../../study/store';
import type { LabContext } from '../../../services/context';
import type { HandlersFor } from '../../../services/dispatch';
import { refuseDuringSession } from '../../../services/session-lock';

export function createRelationHandlers(ctx: LabContext): HandlersFor<typeof relationMethods> {
  const store = new StudyStore(ctx.home);
  const trials = (studyId: string) => {
    store.config(studyId);
    return studyRelationTrials(store, studyId, ctx.tasksDir);
  };
  return refuseDuringSession({
    'relation.results': async (p) => {
      const rows = trials(p.studyId);
      // Attention checks are not trials of the task: the older tables leave them out too.
      const s = summariseRelation(rows.filter((r) => !r.catch).map((r) => ({ ...r, rtMs: r.rtMs })));
      return { ...s, trials: rows, study: summariseStudy(rows) };
    },
    'relation.exportCsv': async (p) => ({ filename: `${p.studyId}-relation-trials.csv`, csv: relationCsv(trials(p.studyId)) }),
  }, ctx.home);
}
