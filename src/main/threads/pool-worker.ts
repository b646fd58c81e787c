// Entry of one worker thread of the lab's WorkerPool (pool.ts): runs the job handlers of
// jobs.ts on the messages of protocol.ts, one job at a time, and keeps resident data by key
// (the loop: workers/serve-jobs.ts).
// Input: 'run', 'resident' and 'forget' messages. Output: 'progress', 'done' and 'error' replies.
// Invariant: a handler's failure is one 'error' reply with a one-line message; the worker goes on.
import { jobHandlers } from './jobs';
import { serveJobs } from '../workers/serve-jobs';

serveJobs(jobHandlers, 'pool-worker.ts');
