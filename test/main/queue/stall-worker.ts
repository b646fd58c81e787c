// A BullMQ worker process for test/main/queue/stall.test.ts: startWorkers over the redis URL and
// tasks folder of argv, with locks of argv[4] ms. With argv[5] = N > 0 it simulates a stalled
// worker: the first N times an episode asks for its grader, the event loop is held for argv[6] ms
// (longer than the lock), so the job's lock lapses and BullMQ hands it to the other worker while
// this one goes on with it afterwards. With argv[7] (a file path) the hold lasts until that file
// exists and then argv[6] ms more: the test creates it once the other worker is up, so the lapse
// happens while someone can take the job, however slowly a loaded machine started that worker.
// Prints one JSON line per episode outcome and per error.
import { existsSync } from 'node:fs';
import { loadEvalConfig } from '../../../src/main/models/config';
import { sharedGrader } from '../../../src/main/eval/runtime';
import { startWorkers } from '../../../src/main/queue/bullmq';
import { registerLabKinds } from '../../../src/main/kinds/manifests';

// A child process of its own: the lab's kinds registered as every entry point does first.
registerLabKinds();

const [url, tasksDir, lockMs, stalls, stallMs, gate] = process.argv.slice(2);
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
        // Holding the event loop on purpose: no lock renewal can run.
        let opened = gate ? 0 : Date.now();
        let looked = 0;
        while (!opened || Date.now() < opened + Number(stallMs)) {
          if (!opened && Date.now() - looked >= 20) {
            looked = Date.now();
            if (existsSync(gate)) opened = looked;
          }
        }
      }
      return grader();
    },
  },
  {
    concurrency: { openai: 1, anthropic: 1, scripted: 2 },
    lockMs: Number(lockMs),
    onEpisode: (job, outcome) => process.stdout.write(`${JSON.stringify({ pid: process.pid, jobId: job.jobId, skipped: outcome.skipped, played: outcome.played, resumed: outcome.resumed })}\n`),
    onError: (line) => process.stdout.write(`${JSON.stringify({ pid: process.pid, error: line })}\n`),
  },
);
process.stdout.write('ready\n');
process.once('SIGTERM', () => void workers.close().then(() => process.exit(0)));
