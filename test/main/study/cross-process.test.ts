// Locks across lab processes on one home (issue 29 item 7; src/main/io/process-lock.ts,
// src/main/study/session.ts, src/main/study/store.ts): a second lab process (a child with its
// own LabContext) refuses a live participant's session and stays locked itself; after the end it
// may run it; a holder killed with -9 leaves a stale lock that is taken over; participants added
// from two processes at once all get distinct ids.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { createLabContext } from '../../../src/main/services/context';
import { createStudyHandlers } from '../../../src/main/services/study';
import type { Participant, StudyConfig } from '../../../src/shared/study/config';
import { testTasks } from '../env/fixtures';
import { childArgs, childEnv } from '../../helpers/child-entry';

const CHILD = join(__dirname, 'second-lab-child.ts');
type Out = { ok: true; result: unknown } | { ok: false; message: string };

let home: string;
let tasksDir: string;
let handlers: Handlers;
let study: StudyConfig;

async function call<T>(method: string, params: unknown = {}): Promise<T> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(out.message);
  return out.result as T;
}

/** A second lab process, built before anything below happens in this one. */
class SecondLab {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private wake: (() => void) | null = null;
  readonly exited: Promise<unknown>;

  constructor() {
    this.child = spawn(process.execPath, [...childArgs(CHILD), home, tasksDir], { env: childEnv() });
    this.exited = new Promise((r) => this.child.once('exit', r));
    createInterface({ input: this.child.stdout }).on('line', (l) => {
      this.lines.push(l);
      this.wake?.();
    });
    this.child.once('exit', () => this.wake?.());
  }

  private async next(): Promise<string> {
    while (!this.lines.length) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error('the second lab process ended');
      await new Promise<void>((r) => (this.wake = r));
    }
    return this.lines.shift() as string;
  }

  async ready(): Promise<void> {
    expect(await this.next()).toBe('ready');
  }

  async call(method: string, params: unknown = {}): Promise<Out> {
    this.child.stdin.write(`${JSON.stringify([method, params])}\n`);
    return JSON.parse(await this.next()) as Out;
  }

  pid(): number {
    return this.child.pid ?? 0;
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    await this.exited;
  }

  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

beforeAll(async () => {
  tasksDir = (await testTasks()).tasksDir;
  home = mkdtempSync(join(tmpdir(), 'splatlab-xproc-'));
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', listTasks: async () => [] });
  handlers = createStudyHandlers(ctx) as unknown as Handlers;
  study = await call<StudyConfig>('study.create', { name: 'Cross', tasks: ['test__sculpt'], practiceTask: 'test__oneshot', protocol: 'matched' });
}, 120_000);

describe('a second lab process on the same home', () => {
  it('refuses a live participant session, stays locked, and may run it after the end', async () => {
    const p = await call<Participant>('study.addParticipant', { studyId: study.id });
    // Both labs are up before the session starts (the case that started one participant twice).
    const other = new SecondLab();
    try {
      await other.ready();
      await call('study.session.start', { studyId: study.id, participant: p.id });
      const live = new RegExp(`participant ${p.id}'s session of study '${study.id}' is live in another lab process \\(pid ${process.pid}\\)`);
      expect(await other.call('study.session.start', { studyId: study.id, participant: p.id })).toMatchObject({ ok: false, message: expect.stringMatching(/locked while participant|is live in another lab process/) });
      expect(await other.call('study.session.advance', { accept: true })).toMatchObject({ ok: false, message: expect.stringMatching(live) });
      expect(await other.call('study.session.task')).toMatchObject({ ok: false, message: expect.stringMatching(live) });
      expect(await other.call('study.session.end')).toMatchObject({ ok: false, message: expect.stringMatching(live) });
      expect(await other.call('study.list')).toMatchObject({ ok: false, message: expect.stringMatching(/locked while participant/) });
      // Nothing the second process tried was recorded: one session line, written by our end.
      await call('study.session.end');
      const lines = readFileSync(join(home, 'studies', study.id, 'sessions.jsonl'), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(await other.call('study.list')).toMatchObject({ ok: true });
      expect(await other.call('study.session.start', { studyId: study.id, participant: p.id })).toMatchObject({ ok: true });
      expect(await dispatchCall(handlers, 'study.session.advance', { accept: true })).toMatchObject({ ok: false, message: expect.stringMatching(new RegExp(`live in another lab process \\(pid ${other.pid()}\\)`)) });
      expect(await other.call('study.session.end')).toMatchObject({ ok: true });
    } finally {
      await other.close();
    }
  }, 240_000);

  it('takes over the session of a lab process killed with -9', async () => {
    const p = await call<Participant>('study.addParticipant', { studyId: study.id });
    const other = new SecondLab();
    await other.ready();
    expect(await other.call('study.session.start', { studyId: study.id, participant: p.id })).toMatchObject({ ok: true });
    expect((await dispatchCall(handlers, 'study.session.advance', { accept: true })).ok).toBe(false);
    await other.kill();
    // The holder is gone: this process continues the session from session.json and ends it.
    const state = await call<{ stage: string }>('study.session.advance', { accept: true });
    expect(state.stage).toBe('instructions');
    await call('study.session.end');
  }, 240_000);

  it('gives distinct participant ids when two processes add participants at once', async () => {
    const n = 15;
    const other = new SecondLab();
    try {
      await other.ready();
      const [theirs, mine] = await Promise.all([
        (async () => {
          const ids: string[] = [];
          for (let i = 0; i < n; i++) ids.push(((await other.call('study.addParticipant', { studyId: study.id })) as { result: Participant }).result.id);
          return ids;
        })(),
        (async () => {
          const ids: string[] = [];
          for (let i = 0; i < n; i++) {
            ids.push((await call<Participant>('study.addParticipant', { studyId: study.id })).id);
            await new Promise((r) => setTimeout(r, 2));
          }
          return ids;
        })(),
      ]);
      const all = (await call<{ participants: Participant[] }>('study.get', { studyId: study.id })).participants.map((x) => x.id);
      expect(new Set([...mine, ...theirs]).size).toBe(2 * n);
      expect(all).toEqual(expect.arrayContaining([...mine, ...theirs]));
    } finally {
      await other.close();
    }
  }, 240_000);
});
