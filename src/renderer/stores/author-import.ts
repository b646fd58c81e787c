// The import panel's calls to the lab (Pinia setup store; docs/TASKS.md, "Importing and exporting"): a staged
// upload's preview, its cancel, the finishing import and its progress. The panel keeps its form
// and status; the upload itself goes through src/renderer/authoring/upload.ts in chunks.
// Inputs: the LabApi handle (stores/connection.ts), an upload id and the import's choices.
// Output: LabApi results. Invariant: a cancel never throws (the upload may be gone already).
import { defineStore } from 'pinia';
import type { LabApi, LabParams, LabResult } from '../../shared/api/lab';

export const useAuthorImportStore = defineStore('author-import', () => {
  const preview = (api: LabApi, params: LabParams<'author.upload.preview'>): Promise<LabResult<'author.upload.preview'>> => api.call('author.upload.preview', params);
  const cancel = (api: LabApi, uploadId: string): Promise<void> => api.call('author.upload.cancel', { uploadId }).then(() => undefined, () => undefined);
  const finish = (api: LabApi, params: LabParams<'author.upload.finish'>): Promise<LabResult<'author.upload.finish'>> => api.call('author.upload.finish', params);
  /** Progress lines of the import named `name` (its progress task is `import <name>`); returns the unsubscribe. */
  const onProgress = (api: LabApi, name: () => string, listener: (message: string) => void): (() => void) =>
    api.on('progress', (p) => {
      if (p.task === `import ${name()}`) listener(p.message);
    });
  return { preview, cancel, finish, onProgress };
});
