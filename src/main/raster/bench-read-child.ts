// Child process of `splatlab bench formats` (src/main/raster/bench-formats.ts): reads one splat file
// with the lab's readSplatFile, or with @playcanvas/splat-transform (`--peer FORMAT`: its reader
// and materializeToDataTable, from the bytes in memory), and prints one JSON line with the CPU and
// wall time of the reading, the RSS before it, the peak RSS (VmHWM) and the Gaussians read.
// `--render SIZE`: then one frame of the room camera on the tile rasterizer (2 pool threads), so
// the peak is that of a capture being rendered (`splatlab render`, the debugger).
// Each reading runs in its own process so its peak memory is its own.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { readSplatFile } from '../formats/read';
import { roomCamera } from './room-scene';
import { TileRasterPool } from './tile-pool';

const rssOf = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024;
const cpu = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

interface PeerModule {
  MemoryReadFileSystem: new () => { set(name: string, data: Uint8Array): void };
  readFile(o: { filename: string; inputFormat: string; fileSystem: unknown }): Promise<{ close(): Promise<void> }[]>;
  materializeToDataTable(source: unknown, pool: unknown): Promise<{ numRows: number }>;
  createChunkDataPool(): unknown;
}

const path = process.argv[2];
const peer = process.argv[3] === '--peer' ? process.argv[4] : null;
const renderSize = process.argv[3] === '--render' ? Number(process.argv[4]) : 0;
// The peer is a dev dependency: named at run time, so bundlers leave it out of the app.
const peerName = '@playcanvas/splat-transform';
const lib = peer ? ((await import(peerName)) as PeerModule) : null;
const baseRssBytes = rssOf('VmRSS');
const c0 = cpu();
const w0 = performance.now();
let count: number;
if (lib && peer) {
  const bytes = new Uint8Array(readFileSync(path));
  const fs = new lib.MemoryReadFileSystem();
  fs.set(basename(path), bytes);
  const [source] = await lib.readFile({ filename: basename(path), inputFormat: peer, fileSystem: fs });
  count = (await lib.materializeToDataTable(source, lib.createChunkDataPool())).numRows;
  await source.close();
} else {
  const file = await readSplatFile(path);
  count = file.splats.count;
  if (renderSize > 0) {
    const pool = TileRasterPool.create({ workers: 2 });
    await pool.render(file.splats, roomCamera(renderSize, 0));
    pool.destroy();
  }
}
const wallMs = performance.now() - w0;
const cpuMs = cpu() - c0;
process.stdout.write(`${JSON.stringify({ cpuMs, wallMs, baseRssBytes, peakRssBytes: rssOf('VmHWM'), count })}\n`);
process.exit(0);
