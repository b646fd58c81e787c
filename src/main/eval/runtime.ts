// The grader the agent-harness commands (mcp, eval, rl) share: one per process, created on first
// use, on the lab's choice of path (the GPU on a hardware adapter, else the CPU reference) and
// with LPIPS unless turned off. Inputs: --device and --no-lpips. Output: a lazy grader getter.
// Invariant: every episode of the process grades through this one grader (its CPU LPIPS workers
// are the process's grader pool), so concurrent episodes never build their own. The CPU path
// renders and measures on a worker pool of the command's own, so the event loop (MCP and RL
// replies, BullMQ lock renewals: issue 29 items 1 and 4) is never held by a grade.
import { acquireGpu } from '../gpu/device';
import { Grader, graderDevice } from '../grader/grader';
import { photoCacheDir } from '../grader/photo-cache';
import { labHome } from '../io/home';
import { packedCacheDir } from '../lpips/packed-cache';
import { WorkerPool } from '../workers/pool';

export interface GraderChoice {
  device: 'gpu' | 'cpu';
  lpips: boolean;
}

export function sharedGrader(choice: GraderChoice, log?: (line: string) => void): () => Promise<Grader> {
  let made: Promise<Grader> | undefined;
  return () => {
    made ??= (async () => {
      // The CPU path's photo LPIPS taps and packed weights come from this machine's caches
      // (<lab home>/cache), as in `splatlab grade` and the lab's servers (issue 40 item 3).
      const home = labHome();
      const caches = { photoCache: photoCacheDir(home), weightsCache: packedCacheDir(home) };
      const lpipsDir = choice.lpips ? undefined : null;
      const pool = new WorkerPool();
      pool.prestart(); // its threads start while the GPU is probed and the grader built
      if (choice.device === 'cpu') return Grader.create({ device: null, lpipsDir, pool, ...caches });
      const gpu = await acquireGpu({});
      log?.(`GPU: ${gpu.status.path}: ${gpu.status.summary}`);
      // A GPU grade runs in a child process with its own device (gpuProcess), not on this event loop.
      return Grader.create({ ...graderDevice(gpu), lpipsDir, pool, gpuProcess: true, ...caches }).catch(() => Grader.create({ device: null, lpipsDir, pool, ...caches }));
    })();
    made.catch(() => (made = undefined));
    return made;
  };
}
