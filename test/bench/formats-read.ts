// Child process of formats.bench.ts: reads one splat file with readSplatFile and prints
// {seconds, peakRssBytes, count} as JSON, so each reading's peak memory is its own process's.
import { readSplatFile } from '../../src/main/formats/read';

const path = process.argv[2];
const start = performance.now();
const file = await readSplatFile(path);
const seconds = (performance.now() - start) / 1000;
// maxRSS is in kilobytes.
process.stdout.write(`${JSON.stringify({ seconds, peakRssBytes: process.resourceUsage().maxRSS * 1024, count: file.splats.count, detected: file.detected })}\n`);
