// Benchmark of the relation dataset generator: images per second at 224x224 for each
// environment and both tasks (layout draws + visibility pre-check + the full ray-cast image +
// PNG encoding), at 1 and 2 supersamples per pixel axis.
// Run: node --import tsx test/bench/relation.bench.ts [--n N]. Prints a markdown table.
import { performance } from 'node:perf_hooks';
import { encodePng } from '../../src/main/io/png';
import { ENVIRONMENT_IDS, ENVIRONMENTS } from '../../src/shared/kinds/relation/environments';
import { RELATION_CLASSES } from '../../src/shared/kinds/relation/labels';
import { sampleLayout } from '../../src/shared/kinds/relation/layout';
import { generateSample } from '../../src/shared/kinds/relation/sample';

const argv = process.argv.slice(2);
const n = Number(argv.includes('--n') ? argv[argv.indexOf('--n') + 1] : '8');

console.log('| environment | task | layout ms | image ms, s=1 | image ms, s=2 | images/s, s=2 |');
console.log('|---|---|---|---|---|---|');
let totalMs = 0, totalImages = 0;
for (const env of ENVIRONMENT_IDS) {
  for (const task of ['ego', 'allo'] as const) {
    const reqs = Array.from({ length: n }, (_, i) => ({
      environment: env, triple: ENVIRONMENTS[env].triples[i % 3].id, task, wanted: RELATION_CLASSES[i % 4], seed: 9000 + i, id: `b${i}`,
    }));
    let t = performance.now();
    for (const r of reqs) sampleLayout(r);
    const layout = (performance.now() - t) / n;
    const time = (samples: number) => {
      const t0 = performance.now();
      for (const r of reqs) encodePng(generateSample(r, { samples }).image);
      return (performance.now() - t0) / n;
    };
    const s1 = time(1);
    t = performance.now();
    const s2 = time(2);
    totalMs += performance.now() - t;
    totalImages += n;
    console.log(`| ${env} | ${task} | ${layout.toFixed(1)} | ${s1.toFixed(0)} | ${s2.toFixed(0)} | ${(1000 / s2).toFixed(1)} |`);
  }
}
console.log(`\nAll environments and tasks, s=2 (the default): ${(totalImages / (totalMs / 1000)).toFixed(1)} images/s on one core (${n} images per row).`);
