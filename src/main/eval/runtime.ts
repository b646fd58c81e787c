// The grader the agent-harness commands (mcp, eval, rl) share: one per process, created on first
// use, on the lab's choice of path (the GPU on a hardware adapter, else the CPU reference) and
// with LPIPS unless turned off. Inputs: --device and --no-lpips. Output: a lazy grader getter.
// Invariant: every episode of the process grades through this one grader (its CPU LPIPS workers
// are the process's grader pool), so concurrent episodes never build their own.
import { acquireGpu } from '../gpu/device';
import { Grader, graderDevice } from '../grader/grader';

export interface GraderChoice {
  device: 'gpu' | 'cpu';
  lpips: boolean;
}

export function sharedGrader(choice: GraderChoice, log?: (line: string) => void): () => Promise<Grader> {
  let made: Promise<Grader> | undefined;
  return () => {
    made ??= (async () => {
      const lpipsDir = choice.lpips ? undefined : null;
      if (choice.device === 'cpu') return Grader.create({ device: null, lpipsDir });
      const gpu = await acquireGpu({});
      log?.(`GPU: ${gpu.status.path}: ${gpu.status.summary}`);
      return Grader.create({ ...graderDevice(gpu), lpipsDir }).catch(() => Grader.create({ device: null, lpipsDir }));
    })();
    made.catch(() => (made = undefined));
    return made;
  };
}
