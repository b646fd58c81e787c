// Test-only preload for `splatlab serve` (node --import, test/e2e/paper.e2e.ts): SIGUSR2 moves the
// process's wall clock (Date.now and new Date()) 60 s ahead, so an e2e simulates a participant's
// 60 s break without sleeping through it; the page's clock moves with it (playwright's
// page.clock). Timers and performance.now are untouched. Prints `clock-shift: +N ms` once moved.
// Only the main thread (where episodes are logged) is shifted.
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const Real = Date;
  const realNow = Real.now.bind(Real);
  let offset = 0;
  Real.now = () => realNow() + offset;
  globalThis.Date = new Proxy(Real, {
    // new Date() with no argument reads the shifted clock; any other form is the real Date's.
    construct: (target, args, newTarget) => Reflect.construct(target, args.length ? args : [Real.now()], newTarget),
    apply: () => new Real(Real.now()).toString(),
  });
  process.on('SIGUSR2', () => {
    offset += 60_000;
    process.stderr.write(`clock-shift: +${offset} ms\n`);
  });
}
