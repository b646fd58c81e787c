// Source of the LPIPS pool's worker thread, run with `new Worker(source, { eval: true })` so it
// works the same under tsx and in the bundled Electron main process (no worker file to locate).
// It is plain JavaScript that only drives the wasm module the parent emitted
// (src/shared/metrics/wasm/lpips-module.ts): write the render into a slot, the conv rects at
// plan.rectsPtr, the photo taps at plan.photoPtr, call distance(base) or features(base). The
// parent decides slots and rects (pool.ts; the scratch slot, the last one, always computes every
// block). Messages (parent -> worker):
//   { type: 'init', packed }                     packed weights (packLpipsWeights), kept for every size
//   { type: 'net', key, plan, bytes, full }       compile (optimised at once) + load weights (full: every-block
//                                                 rects); replies { type: 'done', job }
//   { type: 'photo', id, key, region }            photo taps in the module layout (photoRegion)
//   { type: 'drop', id }                          forget a photo
//   { type: 'distance', job, key, items: [{ rgb, photo, slot, rects }] }  replies { type: 'done', job, values }
//   { type: 'features', job, key, rgb }           replies { type: 'done', job, region } (a SharedArrayBuffer)
//   { type: 'priority', job }                     replies { type: 'done', job, values: [the thread's niceness] }
// A worker started with workerData.nice (a serving pool's) first lowers its own priority, on Linux
// only, where nice is per thread (src/main/workers/nice.ts says why).
// Errors reply { type: 'error', job, message }. Invariant: messages are handled strictly in
// order (a queue), so a job never runs before the 'net' and 'photo' messages sent ahead of it,
// and a slot's jobs run in the order the parent computed their rects.

export const POOL_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const os = require('node:os');
if (workerData && typeof workerData.nice === 'number' && process.platform === 'linux') {
  try {
    if (os.getPriority(0) < workerData.nice) os.setPriority(0, workerData.nice);
  } catch (err) {
    // Refused (a sandbox): the thread keeps the process's priority, which is only slower to yield.
  }
}
// Compile the nets with the optimising compiler at once: the baseline code V8 starts wasm in is
// several times slower, and a net's first pass (a cold grade's only one) would run in it to the end
// (wasm has no on-stack replacement). Process-wide, read when a module compiles; the nets are small.
require('node:v8').setFlagsFromString('--no-liftoff');
let packed = null;
const nets = new Map();
const photos = new Map();
let queue = Promise.resolve();

function net(key) {
  const n = nets.get(key);
  if (!n) throw new Error('LPIPS worker: no net for ' + key);
  return n;
}

/** Writes the image into the slot and the conv rects; returns the slot base. */
function setImage(n, rgb, slot, rects) {
  const p = n.plan;
  if (rgb.length !== p.width * p.height * 3) throw new Error('LPIPS worker: image has ' + rgb.length + ' floats, expected ' + p.width * p.height * 3);
  if (!(slot >= 0 && slot < p.slots) || rects.length !== p.geometry.length * 4) throw new Error('LPIPS worker: bad slot ' + slot + ' or rects');
  const base = slot * p.slotBytes;
  new Float32Array(n.ex.memory.buffer, p.rgbPtr + base, rgb.length).set(rgb);
  new Int32Array(n.ex.memory.buffer, p.rectsPtr, rects.length).set(rects);
  return base;
}

async function handle(msg) {
  switch (msg.type) {
    case 'init':
      packed = msg.packed;
      return;
    case 'net': {
      const { instance } = await WebAssembly.instantiate(msg.bytes, {});
      const ex = instance.exports;
      new Float32Array(ex.memory.buffer, msg.plan.weightsPtr, msg.plan.weightsFloats).set(packed);
      const n = { plan: msg.plan, ex, full: msg.full };
      nets.set(msg.key, n);
      parentPort.postMessage({ type: 'done', job: msg.job });
      return;
    }
    case 'photo':
      photos.set(msg.id, msg.region);
      return;
    case 'drop':
      photos.delete(msg.id);
      return;
    case 'distance': {
      const n = net(msg.key);
      const values = msg.items.map((item) => {
        const photo = photos.get(item.photo);
        if (!photo) throw new Error('LPIPS worker: unknown photo ' + item.photo);
        if (photo.length !== n.plan.photoFloats) throw new Error('LPIPS worker: photo ' + item.photo + ' was sent for another image size');
        const base = setImage(n, item.rgb, item.slot, item.rects);
        new Float32Array(n.ex.memory.buffer, n.plan.photoPtr, n.plan.photoFloats).set(photo);
        return n.ex.distance(base);
      });
      parentPort.postMessage({ type: 'done', job: msg.job, values });
      return;
    }
    case 'features': {
      const n = net(msg.key);
      n.ex.features(setImage(n, msg.rgb, n.plan.slots - 1, n.full));
      // In shared memory: the parent sends it on to the worker of the photo's distances without a
      // copy on its event loop (issue 38 item 1).
      const region = new Float32Array(new SharedArrayBuffer(n.plan.photoFloats * 4));
      region.set(new Float32Array(n.ex.memory.buffer, n.plan.photoPtr, n.plan.photoFloats));
      parentPort.postMessage({ type: 'done', job: msg.job, region });
      return;
    }
    case 'priority':
      parentPort.postMessage({ type: 'done', job: msg.job, values: [os.getPriority(0)] });
      return;
    default:
      throw new Error('LPIPS worker: unknown message ' + msg.type);
  }
}

parentPort.on('message', (msg) => {
  queue = queue.then(() => handle(msg)).catch((err) => {
    parentPort.postMessage({ type: 'error', job: msg.job, message: err && err.message ? err.message : String(err) });
  });
});
`;
