// The participant journal (src/main/study/store.ts, docs/STUDIES.md "The participant journal"):
// a write appends one line and never rewrites the study; a kill -9 in the middle of writes loses
// no record whose write had returned; a torn last line is skipped and the next record starts on a
// fresh line; a study still on participants.json moves to the journal on its first write.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOURNAL, StudyStore } from '../../../src/main/study/store';
import { childArgs, childEnv } from '../../helpers/child-entry';

const CHILD = join(__dirname, 'journal-writer-child.ts');
let home: string;
let store: StudyStore;
let studyId: string;

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'splatlab-journal-'));
  store = new StudyStore(home);
  studyId = (await store.create({ name: 'Journal', tasks: ['a__sculpt', 'b__sculpt'], practiceTask: 'c__sculpt' }, new Set(['a__sculpt', 'b__sculpt', 'c__sculpt']))).id;
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('participant journal', () => {
  it('appends one line per write; the latest line per participant wins, in creation order', async () => {
    const a = await store.addParticipant(studyId);
    const b = await store.addParticipant(studyId);
    await store.updateParticipant(studyId, a.id, (p) => ({ ...p, taskIndex: 1 }));
    const text = readFileSync(join(store.dir(studyId), JOURNAL), 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(3);
    expect(store.participants(studyId).map((p) => [p.id, p.taskIndex])).toEqual([[a.id, 1], [b.id, 0]]);
  });

  it('skips a torn last line and starts the next record on a fresh line', async () => {
    const a = await store.addParticipant(studyId);
    appendFileSync(join(store.dir(studyId), JOURNAL), '{"id":"P02","created":"2026-');
    expect(store.participants(studyId).map((p) => p.id)).toEqual([a.id]);
    await store.updateParticipant(studyId, a.id, (p) => ({ ...p, taskIndex: 2 }));
    const lines = readFileSync(join(store.dir(studyId), JOURNAL), 'utf8').split('\n');
    expect(lines.filter((l) => l.startsWith('{"id":"P01"'))).toHaveLength(2);
    expect(store.participants(studyId)).toMatchObject([{ id: a.id, taskIndex: 2 }]);
  });

  it('moves a study still on participants.json to the journal on its first write', async () => {
    const dir = store.dir(studyId);
    rmSync(join(dir, JOURNAL));
    const old = { id: 'P01', created: '2026-01-01T00:00:00.000Z', order: ['a__sculpt', 'b__sculpt'], status: 'new', stage: 'consent', taskIndex: 0, episodes: [] };
    writeFileSync(join(dir, 'participants.json'), JSON.stringify({ participants: [old] }));
    expect(store.participants(studyId)).toMatchObject([{ id: 'P01' }]);
    const next = await store.addParticipant(studyId);
    expect(next.id).toBe('P02');
    expect(existsSync(join(dir, JOURNAL))).toBe(true);
    expect(store.participants(studyId).map((p) => p.id)).toEqual(['P01', 'P02']);
  });

  it('loses no acknowledged record when the writer is killed with SIGKILL mid-writes', async () => {
    const child = spawn(process.execPath, [...childArgs(CHILD), home, studyId], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const acked = new Map<string, number>();
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    let count = 0;
    await new Promise<void>((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const m = /^ack (P\d+) (\d+)$/.exec(line);
        if (!m) return;
        acked.set(m[1], Math.max(acked.get(m[1]) ?? 0, Number(m[2])));
        // Killed while it keeps writing: the kill lands at an arbitrary point of some write.
        if (++count === 300) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.once('exit', () => resolve());
    });
    await exited;
    expect(count, `the writer stopped early: ${stderr}`).toBeGreaterThanOrEqual(300);
    const stored = new Map(store.participants(studyId).map((p) => [p.id, p.taskIndex]));
    for (const [id, n] of acked) expect(stored.get(id), `participant ${id}`).toBeGreaterThanOrEqual(n);
    // Writes go on after the kill's aftermath: the store still appends and reads.
    const p = await store.addParticipant(studyId);
    expect(store.participant(studyId, p.id).status).toBe('new');
  });
});
