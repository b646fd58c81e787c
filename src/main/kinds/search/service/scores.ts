// Handlers of the search scoring LabApi rows (src/shared/kinds/search/api-scores.ts): a study's search episodes
// scored and aggregated (src/main/kinds/search/study/results.ts, src/shared/kinds/search/aggregate.ts), the
// free-text answers waiting for a rater, a rater's mark, and the LLM judge through a model
// runner (src/main/kinds/search/judge.ts). Refused while a participant session runs (hidden answers).
import type { searchScoreMethods } from '../../../../shared/kinds/search/api-scores';
import { RaterRecordSchema } from '../../../../shared/kinds/search/scores';
import { aggregateSearch, SEARCH_RESAMPLES } from '../../../../shared/kinds/search/aggregate';
import { loadEvalConfig } from '../../../models/config';
import { makeClient, parseModelSpec, playerName } from '../../../models/spec';
import { appendRating } from '../judge-store';
import { judgeLogs } from '../judge';
import { judgeImages } from '../judge-images';
import { baselineRows, pendingRatings, studySearchLogs, studySearchRows } from '../study/results';
import { StudyError, StudyStore } from '../../../study/store';
import type { LabContext } from '../../../services/context';
import type { HandlersFor } from '../../../services/dispatch';
import { refuseDuringSession } from '../../../services/session-lock';

export function createSearchScoreHandlers(ctx: LabContext): HandlersFor<typeof searchScoreMethods> {
  const store = new StudyStore(ctx.home);
  const running = new Map<string, AbortController>();
  const logs = (studyId: string) => {
    store.config(studyId);
    return studySearchLogs(store, studyId, ctx.tasksDir);
  };
  return refuseDuringSession({
    'search.results': async (p) => {
      store.config(p.studyId);
      const rows = studySearchRows(store, p.studyId, ctx.tasksDir);
      if (p.baselines) {
        const specs = [...new Map(logs(p.studyId).map((l) => [l.spec.task_id, l.spec])).values()];
        rows.push(...(await baselineRows(ctx.tasksDir, specs)));
      }
      const scoredBy = { rater: 0, judge: 0, exact: 0, none: 0 };
      for (const r of rows) if (r.excluded === null) scoredBy[r.scoredBy]++;
      return { cells: aggregateSearch(rows), episodes: rows, scoredBy, resamples: SEARCH_RESAMPLES };
    },
    'search.pending': async (p) => {
      store.config(p.studyId);
      return pendingRatings(store, p.studyId, ctx.tasksDir);
    },
    'search.rate': async (p) => {
      const log = logs(p.studyId).find((l) => l.rel === p.ref);
      if (!log) throw new StudyError(`no search log '${p.ref}' in study '${p.studyId}'`);
      if (log.spec.question.answer.type !== 'text') throw new StudyError(`${p.ref} has a closed answer type: the exact checker scores it`);
      const rec = RaterRecordSchema.parse({ rater: p.rater, mark: p.mark, score: (100 * (p.mark - 1)) / 4, at: new Date().toISOString() });
      appendRating(log.path, rec);
      return rec;
    },
    'search.judge': async (p, caller) => {
      if (running.has(p.studyId)) throw new StudyError(`the judge is already running on study '${p.studyId}'`);
      const spec = parseModelSpec(p.model);
      const config = loadEvalConfig();
      makeClient(spec, config);
      const abort = new AbortController();
      running.set(p.studyId, abort);
      const task = `judge ${p.studyId}`;
      try {
        return await judgeLogs(logs(p.studyId), () => makeClient(spec, config), playerName(spec), {
          force: p.force, signal: abort.signal, images: judgeImages(ctx.tasksDir, ctx.views.render),
          onProgress: (message, done, total) => ctx.events.publish('progress', { task, done, total, message }, caller),
        });
      } finally {
        running.delete(p.studyId);
      }
    },
    'search.judgeCancel': async (p) => {
      const r = running.get(p.studyId);
      r?.abort();
      return { cancelled: r !== undefined };
    },
  }, ctx.home);
}
