// Entry of the GPU grader's child process (issue 29 item 1; src/main/grader/gpu-process.ts starts
// it): its own Dawn device and GpuBackend (WGSL rasterizer + GPU metrics), so encoding, submission
// and readback never hold the event loop of the process that answers clients. Dawn's `webgpu`
// package cannot make a device inside a worker thread, hence a process.
// Input: the messages of gpu-process-protocol.ts over the IPC channel. Output: 'ready' (or
// 'failed') once, then one 'result' or 'error' per call.
// Invariant: the process ends when its parent's channel closes (the parent closed the grader,
// exited or was killed), so it is never left behind.
import { acquireGpu } from '../gpu/device';
import { createGpuBackend } from '../grader/gpu';
import type { FromGpuChild, GpuCall, GpuChildInit, ToGpuChild } from '../grader/gpu-process-protocol';
import type { GradeBackend } from '../grader/types';
import { loadLpipsWeights } from '../lpips/weights';
import type { RefView } from '../tasks/load';
import { oneLine } from '../workers/protocol';

if (!process.send) throw new Error('gpu-grader.ts runs only as the child process of the GPU grader');

const views = new Map<string, RefView>();
let backend: Promise<GradeBackend> | null = null;

function reply(msg: FromGpuChild): void {
  process.send?.(msg);
}

function viewsOf(keys: string[]): RefView[] {
  return keys.map((key) => {
    const view = views.get(key);
    if (!view) throw new Error(`GPU grader process: view '${key}' was not sent`);
    return view;
  });
}

async function start(init: GpuChildInit): Promise<GradeBackend> {
  const gpu = await acquireGpu();
  if (!gpu.device) throw new Error(`no WebGPU adapter in the GPU grader process (${gpu.status.summary})`);
  const weights = init.lpips ? loadLpipsWeights(init.lpips) : null;
  const made = await createGpuBackend(gpu.device, weights, init.shaders);
  reply({ type: 'ready', status: gpu.status });
  return made;
}

async function call(b: GradeBackend, c: GpuCall): Promise<unknown> {
  switch (c.op) {
    case 'render':
      return b.render(c.splats, c.cameras);
    case 'measure':
      return b.measure(c.renders, viewsOf(c.keys), c.withLpips);
    case 'renderAndMeasure': {
      const list = viewsOf(c.keys);
      const renders = await b.render(c.splats, list.map((v) => v.camera));
      return { renders, scores: await b.measure(renders, list, c.withLpips) };
    }
  }
}

process.on('message', (msg: ToGpuChild) => {
  switch (msg.type) {
    case 'init':
      backend ??= start(msg);
      backend.catch((e: unknown) => {
        reply({ type: 'failed', message: oneLine(e) });
        process.exit(1);
      });
      return;
    case 'view':
      views.set(msg.key, msg.view);
      return;
    case 'release': {
      const gone = msg.keys.flatMap((k) => views.get(k) ?? []);
      for (const k of msg.keys) views.delete(k);
      void backend?.then((b) => b.release(gone));
      return;
    }
    case 'call':
      if (!backend) {
        reply({ type: 'error', id: msg.id, message: 'GPU grader process: call before init' });
        return;
      }
      backend
        .then((b) => call(b, msg.call))
        .then(
          (value) => reply({ type: 'result', id: msg.id, value }),
          (e: unknown) => reply({ type: 'error', id: msg.id, message: oneLine(e) }),
        );
  }
});

// The parent is gone (closed the grader, exited, or was killed): so is this process.
process.on('disconnect', () => process.exit(0));
