// The process log's writer and its bounds: a scripted 30-minute episode at the recorder's limits
// (the camera at 4 Hz all the time, a staged edit, a selection and an undo every few seconds,
// focus changes and a pause), sent in heartbeat batches every 0.5 s, stays far under the bound;
// its size is the figure in docs/STUDIES.md. A flood past the bound is cut with one `truncated`.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendProcessEvents } from '../../../src/main/episodes/process-writer';
import { MAX_PROCESS_BYTES, parseProcessLog, processLogPath, type ProcessEvent } from '../../../src/shared/env/process-log';

const T0 = Date.parse('2026-01-01T10:00:00Z');

function scripted(minutes: number): ProcessEvent[][] {
  const batches: ProcessEvent[][] = [];
  for (let ms = 0; ms < minutes * 60_000; ms += 500) {
    const b: ProcessEvent[] = [];
    for (let k = 0; k < 2; k++) b.push({ t: T0 + ms + k * 250, e: 'camera', d: { m: [0.707, -0.707, 0, 0.012, 0.354, 0.354, 0.866, -0.021, -0.612, -0.612, 0.5, 3.2], f: 443.4 } });
    if (ms % 4_000 === 0) b.push({ t: T0 + ms + 10, e: 'stage.add', d: { label: 'add sphere', kind: 'add', staged: (ms / 4_000) % 12 } });
    if (ms % 4_000 === 0) b.push({ t: T0 + ms + 20, e: 'select', d: { ids: [ms / 4_000] } });
    if (ms % 12_000 === 0) b.push({ t: T0 + ms + 30, e: 'undo', d: { staged: 3 } });
    if (ms % 60_000 === 0) b.push({ t: T0 + ms + 40, e: 'blur' }, { t: T0 + ms + 5_040, e: 'focus' });
    if (ms % 600_000 === 0) b.push({ t: T0 + ms + 50, e: 'photo.snap', d: { view: 'V3' } });
    batches.push(b);
  }
  return batches;
}

describe('the process log writer', () => {
  it('keeps a scripted 30-minute episode well inside its bound', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'splatlab-process-')), 'ep.jsonl');
    const batches = scripted(30);
    for (const b of batches) appendProcessEvents(log, b);
    const path = processLogPath(log);
    const bytes = statSync(path).size;
    const events = parseProcessLog(readFileSync(path, 'utf8'));
    expect(events).toHaveLength(batches.reduce((a, b) => a + b.length, 0));
    expect(events.some((e) => e.e === 'truncated')).toBe(false);
    expect(bytes).toBeLessThan(MAX_PROCESS_BYTES / 2);
    console.log(`process log, scripted 30-minute episode: ${events.length} events, ${bytes} bytes (${(bytes / 1024 / 1024).toFixed(2)} MiB)`);
  });

  it('cuts a flood at the bound with one truncated event', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'splatlab-process-')), 'ep.jsonl');
    for (let i = 0; i < 300; i++) appendProcessEvents(log, Array.from({ length: 500 }, (_, k) => ({ t: T0 + i * 500 + k, e: 'select' as const, d: { ids: [k, k + 1, k + 2] } })));
    const path = processLogPath(log);
    expect(statSync(path).size).toBeLessThanOrEqual(MAX_PROCESS_BYTES);
    const events = parseProcessLog(readFileSync(path, 'utf8'));
    expect(events.filter((e) => e.e === 'truncated')).toHaveLength(1);
    expect(events.at(-1)?.e).toBe('truncated');
  });
});
