// The task kinds' own worker-pool jobs (issue 38 item 1): the pool's table of handlers
// (src/main/threads/jobs.ts) takes them from here, so the threads name no kind; a kind adds a job
// by adding its handler below, named `<family>.<job>`, and runs it on the pool it is given
// (KindEnvOptions.pool). Handlers follow the table's invariant (structured-clone data in and out,
// no main-thread state).
import { trialImageJob } from './relation/trial-image';
import { angleImageJob, publicPhotosJob, referenceSheetJob, viewsSheetJob } from './splatbench/image-jobs';

export const kindJobHandlers = {
  'relation.trialImage': trialImageJob,
  'splatbench.references': referenceSheetJob,
  'splatbench.publicPhotos': publicPhotosJob,
  'splatbench.viewsSheet': viewsSheetJob,
  'splatbench.angleImage': angleImageJob,
};
