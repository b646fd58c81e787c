// Source of the LPIPS pool's worker thread, run with `new Worker(source, { eval: true })` so it
// works the same under tsx and in the bundled Electron main process (no worker file to locate).
// It is plain JavaScript that only drives the wasm module the parent emitted
// (src/shared/metrics/wasm/lpips-module.ts): write the render at plan.rgbPtr, the photo taps at
// plan.photoPtr, call distance() or features(). Messages (parent -> worker):
//   { type: 'init', packed }                     packed weights (packLpipsWeights), kept for every size
//   { type: 'net', key, plan, bytes }             compile + load weights + warm up; replies { type: 'done', job }
//   { type: 'photo', id, key, region }            photo taps in the module layout (photoRegion)
//   { type: 'drop', id }                          forget a photo
//   { type: 'distance', job, key, items: [{ rgb, photo }] }  replies { type: 'done', job, values }
//   { type: 'features', job, key, rgb }           replies { type: 'done', job, region } (transferred)
// Errors reply { type: 'error', job, message }. Invariant: messages are handled strictly in
// order (a queue), so a job never runs before the 'net' and 'photo' messages sent ahead of it.

export const POOL_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort } = require('node:worker_threads');
let packed = null;
const nets = new Map();
const photos = new Map();
let queue = Promise.resolve();

function net(key) {
  const n = nets.get(key);
  if (!n) throw new Error('LPIPS worker: no net for ' + key);
  return n;
}

function setImage(n, rgb) {
  const p = n.plan;
  if (rgb.length !== p.width * p.height * 3) throw new Error('LPIPS worker: image has ' + rgb.length + ' floats, expected ' + p.width * p.height * 3);
  new Float32Array(n.ex.memory.buffer, p.rgbPtr, rgb.length).set(rgb);
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
      ex.forward(); // warm-up: lets the engine tier the hot functions up before real work
      nets.set(msg.key, { plan: msg.plan, ex });
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
        setImage(n, item.rgb);
        new Float32Array(n.ex.memory.buffer, n.plan.photoPtr, n.plan.photoFloats).set(photo);
        return n.ex.distance();
      });
      parentPort.postMessage({ type: 'done', job: msg.job, values });
      return;
    }
    case 'features': {
      const n = net(msg.key);
      setImage(n, msg.rgb);
      n.ex.features();
      const region = new Float32Array(n.ex.memory.buffer, n.plan.photoPtr, n.plan.photoFloats).slice();
      parentPort.postMessage({ type: 'done', job: msg.job, region }, [region.buffer]);
      return;
    }
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
