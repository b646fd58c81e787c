// The process log's writer and its bounds: a scripted 30-minute episode at the recorder's limits
// (the camera at 4 Hz all the time, a staged edit, a selection and an undo every few seconds,
// gizmo drags, inspector typing, photos, the render viewer, outliner hide/solo, help, focus
// changes), sent in heartbeat batches every 0.5 s, stays far under the bound;
// its size is the figure in docs/STUDIES.md. A flood past the bound is cut with one `truncated`.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendProcessEvents, appendProcessEventsAsync, ProcessLogWriteError } from '../../../src/main/episodes/process-writer';
import type { LogFile } from '../../../src/main/env/log-file';
import { FaultyDisk } from '../../../src/main/env/log-faults';
import { MAX_PROCESS_BYTES, parseProcessLog, processLine, processLogPath, readProcessLog, type ProcessEvent } from '../../../src/shared/env/process-log';

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
    // The other components' events as they send them (process-events.test.ts): a gizmo drag
    // every 8 s, a value typed every 20 s, a photo enlarged each minute, the render viewer opened,
    // blinked and differenced every 2 minutes, a hide every 3 and a solo every 5, help once.
    if (ms % 8_000 === 0) b.push({ t: T0 + ms + 60, e: 'gizmo.start', d: { mode: 'translate', n: 1 } }, { t: T0 + ms + 460, e: 'gizmo.end', d: { mode: 'translate', n: 1 } });
    if (ms % 20_000 === 0) b.push({ t: T0 + ms + 70, e: 'inspector.type', d: { field: 'insp-opacity', value: '0.55' } });
    if (ms % 60_000 === 0) b.push({ t: T0 + ms + 80, e: 'photo.enlarge', d: { view: 'V5' } });
    if (ms % 120_000 === 0) b.push({ t: T0 + ms + 90, e: 'viewer.open', d: { tool: 'render_views' } }, { t: T0 + ms + 95, e: 'viewer.blink', d: { view: 'V1' } }, { t: T0 + ms + 99, e: 'viewer.diff', d: { view: 'V1' } });
    if (ms % 180_000 === 0) b.push({ t: T0 + ms + 110, e: 'outliner.hide', d: { group: 'arm', hidden: true } });
    if (ms % 300_000 === 0) b.push({ t: T0 + ms + 120, e: 'outliner.solo', d: { group: 'arm' } });
    if (ms === 0) b.push({ t: T0 + 130, e: 'help' });
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

describe('the process log on a full disk (issue 38 item 2)', () => {
  const batch = (i: number): ProcessEvent[] => Array.from({ length: 3 }, (_, k) => ({ t: T0 + i * 500 + k, e: 'camera' as const, d: { m: [0.5, i, k], f: 443.4 } }));

  it('writes each batch whole or throws, and a resent batch lands once: no torn or glued line at any byte', () => {
    const total = Array.from({ length: 6 }, (_, i) => batch(i)).reduce((a, b) => a + b.map(processLine).join('').length, 0);
    for (let k = 0; k <= total; k += 7) {
      const log = join(mkdtempSync(join(tmpdir(), 'splatlab-process-full-')), 'ep.jsonl');
      writeFileSync(processLogPath(log), '');
      const disk = new FaultyDisk(k);
      const file = disk.opener()(processLogPath(log));
      const open = (): LogFile => ({ ...file, close: () => undefined });
      let failures = 0;
      for (let i = 0; i < 6; i++) {
        try {
          appendProcessEvents(log, batch(i), open);
        } catch (error) {
          expect(error).toBeInstanceOf(ProcessLogWriteError);
          expect((error as Error).message).toBe('disk full: no space left on device');
          failures += 1;
          disk.heal(); // space came back: the page sends the same batch with its next beat
          appendProcessEvents(log, batch(i), open);
        }
      }
      file.close();
      expect(failures).toBeLessThanOrEqual(1);
      const text = readFileSync(processLogPath(log), 'utf8');
      const read = readProcessLog(text);
      expect(read.torn, `k=${k}`).toBe(0);
      expect(read.events.map((e) => e.t), `k=${k}`).toEqual(Array.from({ length: 6 }, (_, i) => batch(i).map((e) => e.t)).flat());
    }
  });

  it('the reader skips a torn start and keeps the record glued after it, counting it', () => {
    const whole = processLine({ t: 2, e: 'camera', d: { m: [1, 2], f: 3 } });
    const text = `${processLine({ t: 1, e: 'blur' })}{"t":1.5,"e":"camera","d":{"m"${whole}{"t":3,"e":"foc`;
    expect(readProcessLog(text)).toEqual({ events: [{ t: 1, e: 'blur' }, { t: 2, e: 'camera', d: { m: [1, 2], f: 3 } }], torn: 2 });
  });

  it('starts a new line after a torn tail left by an older writer', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'splatlab-process-tail-')), 'ep.jsonl');
    writeFileSync(processLogPath(log), `${processLine({ t: 1, e: 'blur' })}{"t":2,"e":"ca`);
    appendProcessEvents(log, [{ t: 3, e: 'focus' }]);
    expect(readProcessLog(readFileSync(processLogPath(log), 'utf8'))).toEqual({ events: [{ t: 1, e: 'blur' }, { t: 3, e: 'focus' }], torn: 1 });
  });
});

describe('the heartbeat\'s process log off the event loop (issue 38 item 2)', () => {
  const batch = (i: number): ProcessEvent[] => Array.from({ length: 3 }, (_, k) => ({ t: T0 + i * 500 + k, e: 'camera' as const, d: { m: [0.5, i, k], f: 443.4 } }));
  /** The file with its synchronous writes refused: what reaches the disk goes through libuv's pool. */
  const asyncOnly = (file: LogFile): LogFile => ({
    ...file,
    close: () => undefined,
    writeSync: () => {
      throw new Error('a synchronous write on the event loop');
    },
    truncate: () => {
      throw new Error('a synchronous cut on the event loop');
    },
  });

  it('writes each batch whole or rejects, on libuv\'s pool; a resent batch lands once, concurrent beats in order', async () => {
    const total = Array.from({ length: 6 }, (_, i) => batch(i)).reduce((a, b) => a + b.map(processLine).join('').length, 0);
    for (let k = 0; k <= total; k += 13) {
      const log = join(mkdtempSync(join(tmpdir(), 'splatlab-process-async-')), 'ep.jsonl');
      writeFileSync(processLogPath(log), '');
      const disk = new FaultyDisk(k);
      const file = disk.opener()(processLogPath(log));
      const open = (): LogFile => asyncOnly(file);
      let failures = 0;
      for (let i = 0; i < 6; i++) {
        try {
          await appendProcessEventsAsync(log, batch(i), open);
        } catch (error) {
          expect(error).toBeInstanceOf(ProcessLogWriteError);
          expect((error as Error).message).toBe('disk full: no space left on device');
          failures += 1;
          disk.heal();
          await appendProcessEventsAsync(log, batch(i), open);
        }
      }
      file.close();
      expect(failures).toBeLessThanOrEqual(1);
      const read = readProcessLog(readFileSync(processLogPath(log), 'utf8'));
      expect(read.torn, `k=${k}`).toBe(0);
      expect(read.events.map((e) => e.t), `k=${k}`).toEqual(Array.from({ length: 6 }, (_, i) => batch(i).map((e) => e.t)).flat());
    }
    const log = join(mkdtempSync(join(tmpdir(), 'splatlab-process-async-')), 'ep.jsonl');
    await Promise.all(Array.from({ length: 6 }, (_, i) => appendProcessEventsAsync(log, batch(i))));
    expect(readProcessLog(readFileSync(processLogPath(log), 'utf8')).events.map((e) => e.t)).toEqual(Array.from({ length: 6 }, (_, i) => batch(i).map((e) => e.t)).flat());
  });
});
