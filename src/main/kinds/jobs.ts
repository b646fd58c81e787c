// The task kinds' own worker-pool jobs (issue 38 item 1): the pool's table of handlers
// (src/main/threads/jobs.ts) takes them from here, so the threads name no kind; a kind adds a job
// by adding its handler below, named `<family>.<job>`. Handlers follow the table's invariant
// (structured-clone data in and out, no main-thread state).
import { trialImageJob } from './relation/trial-image';

export const kindJobHandlers = {
  'relation.trialImage': trialImageJob,
};
