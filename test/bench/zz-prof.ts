// temporary: profile the server during one legal NeRF import (not committed)
import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { writeNerfFixture } from '../main/authoring/nerf-fixture';
import { startLiveServer } from '../main/security/live-server';
import { openClient } from '../main/workers/ws-client';
import { benchTasks, player } from './serve-clients';

const legal = mkdtempSync(join(tmpdir(), 'splatlab-prof-nerf-'));
writeNerfFixture(legal, { frames: 40, size: 800 });
function files(dir: string): { path: string; data: string }[] {
  const out: { path: string; data: string }[] = [];
  const walk = (d: string): void => { for (const e of readdirSync(d, { withFileTypes: true })) { const full = join(d, e.name); if (e.isDirectory()) walk(full); else out.push({ path: relative(dir, full), data: readFileSync(full).toString('base64') }); } };
  walk(dir);
  return out;
}
const tasksDir = await benchTasks();
const server = await startLiveServer(tasksDir);
const infos: number[] = [];
try {
  await player(server, [], []);
  const c = await openClient(server);
  const stop = { done: false };
  const prober = (async () => { const p = await openClient(server); while (!stop.done) { const t0 = performance.now(); await p.call('app.info', {}); infos.push(performance.now() - t0); await new Promise((r) => setTimeout(r, 50)); } p.close(); })();
  const players = (async () => { while (!stop.done) await Promise.all(Array.from({ length: Number(process.env.PLAYERS ?? 2) }, () => player(server, [], []))); })();
  const t0 = performance.now();
  const { uploadId } = await c.call<{ uploadId: string }>('author.upload.begin', { kind: 'nerf' });
  for (const f of files(legal)) await c.call('author.upload.put', { uploadId, path: f.path, data: f.data });
  const t1 = performance.now();
  const saved = await c.call<{ ok: boolean }>('author.upload.finish', { uploadId, name: 'legal', steps: Number(process.env.STEPS ?? 30), k: 4 });
  const t2 = performance.now();
  stop.done = true;
  await Promise.all([prober, players]);
  c.close();
  const s = [...infos].sort((a, b) => a - b);
  console.log(`upload ${(t1 - t0).toFixed(0)} ms, finish ${(t2 - t1).toFixed(0)} ms ok=${saved.ok}; app.info n=${s.length} p50 ${s[s.length >> 1]?.toFixed(0)} p99 ${s[Math.floor(s.length * 0.99)]?.toFixed(0)} max ${s[s.length - 1]?.toFixed(0)}`);
} finally {
  await server.stop();
}
