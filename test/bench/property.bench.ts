// The 100,000-call reliability run (test/shared/env/property-run.ts; the suite runs 20,000): seeded
// random and malformed calls against pure episodes, every rule checked on every call. Prints the
// calls, episodes and time as a markdown table. Run: node --import tsx test/bench/property.bench.ts
import { propertyRun } from '../shared/env/property-run';

const t0 = performance.now();
const { calls, episodes, seen } = propertyRun(100_000);
const s = (performance.now() - t0) / 1000;
process.stdout.write('| calls | episodes | outcomes seen | s | calls/s |\n|---|---|---|---|---|\n');
process.stdout.write(`| ${calls} | ${episodes} | ${seen.size} | ${s.toFixed(1)} | ${Math.round(calls / s)} |\n`);
