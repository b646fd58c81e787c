// The relation kind's calls to the lab (Pinia setup store; docs/RELATION.md): a study's relation
// results and their CSV. The kind's components call these actions; no .vue file calls LabApi.
// Input: the LabApi handle (stores/connection.ts) and a study id. Output: the LabApi results.
// Invariant: holds no hidden data (results are what main returns to an experimenter).
import { defineStore } from 'pinia';
import type { LabApi, LabResult } from '../../../shared/api/lab';
import type { RelationResults } from '../../../shared/kinds/relation/api';

export const useRelationStore = defineStore('relation', () => {
  const results = (api: LabApi, studyId: string): Promise<RelationResults> => api.call('relation.results', { studyId });
  const exportCsv = (api: LabApi, studyId: string): Promise<LabResult<'relation.exportCsv'>> => api.call('relation.exportCsv', { studyId });
  return { results, exportCsv };
});
