// The search kind's calls to the lab (Pinia setup store; docs/TASKS.md, "Search tasks"): Results'
// scores, the judge and the rater, the annotation tool (rooms, first and second annotations,
// exports). The kind's components keep their own form state and call these actions; no .vue file calls LabApi.
// Inputs: the LabApi handle (stores/connection.ts) and the kind's LabApi parameters. Output: the
// LabApi results as they come. Invariant: holds no hidden data; the annotation tool's rows are
// what main returns to an experimenter.
import { defineStore } from 'pinia';
import type { LabApi, LabParams, LabResult } from '../../../shared/api/lab';
import type { PendingRating } from '../../../shared/kinds/search/api-scores';
import type { SearchResults } from '../../../shared/kinds/search/scores';

export const useSearchStore = defineStore('search', () => {
  const results = (api: LabApi, studyId: string, baselines: boolean): Promise<SearchResults> => api.call('search.results', { studyId, baselines });
  const judge = (api: LabApi, studyId: string, model: string): Promise<LabResult<'search.judge'>> => api.call('search.judge', { studyId, model, force: false });
  const cancelJudge = async (api: LabApi, studyId: string): Promise<void> => void (await api.call('search.judgeCancel', { studyId }));
  const pending = (api: LabApi, studyId: string): Promise<PendingRating[]> => api.call('search.pending', { studyId });
  const rate = async (api: LabApi, params: LabParams<'search.rate'>): Promise<void> => void (await api.call('search.rate', params));
  /** Progress events of one long task (`judge <study>`, `search export`); returns the unsubscribe. */
  const onProgress = (api: LabApi, task: string, listener: (message: string, done: number, total: number) => void): (() => void) =>
    api.on('progress', (p) => {
      if (p.task === task) listener(p.message, p.done, p.total);
    });
  const rooms = (api: LabApi): Promise<LabResult<'search.rooms'>> => api.call('search.rooms', {}).catch(() => []);
  const annotations = (api: LabApi): Promise<LabResult<'search.annotations'>> => api.call('search.annotations', {}).catch(() => []);
  const saveAnnotation = (api: LabApi, params: LabParams<'search.annotation.save'>): Promise<LabResult<'search.annotation.save'>> => api.call('search.annotation.save', params);
  const blind = (api: LabApi, id: string): Promise<LabResult<'search.annotation.blind'>> => api.call('search.annotation.blind', { id });
  const verify = (api: LabApi, params: LabParams<'search.annotation.verify'>): Promise<LabResult<'search.annotation.verify'>> => api.call('search.annotation.verify', params);
  const exportAnnotation = (api: LabApi, id: string): Promise<LabResult<'search.annotation.export'>> => api.call('search.annotation.export', { id });
  const exportSet = (api: LabApi): Promise<LabResult<'search.export'>> => api.call('search.export', {});
  const cancelExport = async (api: LabApi): Promise<void> => void (await api.call('search.export.cancel', {}));
  return { results, judge, cancelJudge, pending, rate, onProgress, rooms, annotations, saveAnnotation, blind, verify, exportAnnotation, exportSet, cancelExport };
});
