// The message loop of one worker thread of the WorkerPool (pool.ts), for a table of job handlers:
// pool-worker.ts serves every kind of threads/jobs.ts, raster-worker.ts only the tile rasterizer's
// (a thread that loads less: the lab's schemas and decoders stay out of it, docs/PERFORMANCE.md).
// Input: 'run', 'resident' and 'forget' messages (protocol.ts). Output: 'progress', 'done' and
// 'error' replies. Invariant: a handler's failure is one 'error' reply with a one-line message;
// the worker goes on; resident data is kept by key until forgotten; a thread started with a
// niceness (workerData.nice) lowers its own priority first (nice.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread } from './nice';
import { oneLine, type FromWorker, type JobContext, type ToWorker } from './protocol';

export function serveJobs(handlers: Record<string, (input: never, ctx: JobContext) => unknown>, entry: string): void {
  const port = parentPort;
  if (!port) throw new Error(`${entry} runs only as a worker thread of WorkerPool`);
  // A serving pool's thread yields the CPU to the event loop (worker-entry.ts PoolWorkerData).
  lowerThisThread((workerData as { nice?: number } | null)?.nice);
  const residents = new Map<string, unknown>();
  const reply = (msg: FromWorker, transfer: ArrayBufferLike[] = []): void => port.postMessage(msg, transfer as ArrayBuffer[]);

  async function run(job: number, kind: string, input: unknown): Promise<void> {
    const transfer = new Set<ArrayBufferLike>();
    const ctx: JobContext = {
      progress: (done, total, message) => reply({ type: 'progress', job, done, total, ...(message === undefined ? {} : { message }) }),
      resident: <T>(key: string): T => {
        if (!residents.has(key)) throw new Error(`worker: resident '${key}' was not sent`);
        return residents.get(key) as T;
      },
      // Shared memory is shared, not moved: only plain ArrayBuffers go in the transfer list.
      transfer: (...buffers) => buffers.forEach((b) => void (b instanceof ArrayBuffer && transfer.add(b))),
    };
    try {
      const handler = handlers[kind];
      if (!handler) throw new Error(`unknown job kind '${kind}'`);
      const value = await handler(input as never, ctx);
      reply({ type: 'done', job, value }, [...transfer]);
    } catch (error) {
      reply({ type: 'error', job, message: oneLine(error) });
    }
  }

  port.on('message', (msg: ToWorker) => {
    if (msg.type === 'resident') residents.set(msg.key, msg.value);
    else if (msg.type === 'forget') residents.delete(msg.key);
    else void run(msg.job, msg.kind, msg.input);
  });
}
