// Child process of formats.bench.ts: reads one splat file with readSplatFile and prints
// {seconds, peakRssBytes, count} as JSON, so each reading's peak memory is its own process's.
import { readFileSync } from 'node:fs';
import { readSplatFile } from '../../src/main/formats/read';

const path = process.argv[2];
const start = performance.now();
const file = await readSplatFile(path);
const seconds = (performance.now() - start) / 1000;
// VmHWM (this process image's peak RSS, in kB): getrusage's maxrss keeps the parent's peak across exec.
const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024;
process.stdout.write(`${JSON.stringify({ seconds, peakRssBytes: hwm, count: file.splats.count, detected: file.detected })}\n`);
