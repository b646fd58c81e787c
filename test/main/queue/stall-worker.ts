// A BullMQ worker process for test/main/queue/stall.test.ts: startWorkers over the redis URL and
// tasks folder of argv, with locks of argv[4] ms. With argv[5] = N > 0 it simulates a stalled
// worker: the first N times an episode asks for its grader, the event loop is held for argv[6] ms
// (longer than the lock), so the job's lock lapses and BullMQ hands it to the other worker while
// this one goes on with it afterwards. Prints one JSON line per episode outcome and per error.
import { loadEvalConfig } from '../../../src/main/models/config';
import { sharedGrader } from '../../../src/main/eval/runtime';
import { startWorkers } from '../../../src/main/queue/bullmq';

const [url, tasksDir, lockMs, stalls, stallMs] = process.argv.slice(2);
let left = Number(stalls);
const grader = sharedGrader({ device: 'cpu', lpips: false });
const workers = startWorkers(
  url,
  {
    tasksDir,
    config: loadEvalConfig(),
    version: '0.0.0-test',
    grader: async () => {
      if (left > 0) {
        left--;
        const until = Date.now() + Number(stallMs);
        while (Date.now() < until) {
          // holding the event loop on purpose: no lock renewal can run
        }
      }
      return grader();
    },
  },
  {
    concurrency: { openai: 1, anthropic: 1, scripted: 2 },
    lockMs: Number(lockMs),
    onEpisode: (job, outcome) => process.stdout.write(`${JSON.stringify({ pid: process.pid, jobId: job.jobId, skipped: outcome.skipped })}\n`),
    onError: (line) => process.stdout.write(`${JSON.stringify({ pid: process.pid, error: line })}\n`),
  },
);
process.stdout.write('ready\n');
process.once('SIGTERM', () => void workers.close().then(() => process.exit(0)));
