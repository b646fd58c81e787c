// What an experimenter does to one participant's record outside a session: assign a
// counterbalancing slot, mark an episode excluded, record a withdrawal, delete the data on
// request; and the study's two append-only logs (sessions.jsonl, deletions.json).
// Inputs: the StudyStore, a study id, a participant id. Outputs: the new participant record.
// Invariants: deletion removes every file of the participant under the study folder
// (trajectories/<id>/) and every archive exported before it (<home>/exports/<study>/), clears
// consent, answers and withdrawal from the record and the participant's lines from sessions.jsonl, and leaves a deletion record naming only ids,
// times and file names; the participant id is never reused (the record stays as 'deleted').
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { DeletionsFileSchema, type DeletionRecord, type Participant, type StudyConfig } from '../../shared/study/config';
import { assignedOrder, cycleLength } from '../../shared/study/order';
import { flowFlags } from '../../shared/study/flow';
import { forgetSessionMeta } from './session-meta';
import { parseJsonLines } from '../../shared/env/json-lines';
import { writeFileAtomic } from '../io/write-atomic';
import { StudyError, type StudyStore } from './store';

/** One ended participant session: when it ran and how it ended. */
export const SessionRecordSchema = z.strictObject({
  participant: z.string(),
  started: z.string(),
  ended: z.string(),
  outcome: z.enum(['paused', 'completed', 'declined', 'withdrawn']),
});
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

/** Folder of the study's exported archives (outside the study folder, so an export never nests). */
export function exportsDir(store: StudyStore, studyId: string): string {
  store.dir(studyId); // validates the id
  return join(store.root, '..', 'exports', studyId);
}

export function appendSession(store: StudyStore, studyId: string, record: SessionRecord): void {
  appendFileSync(join(store.dir(studyId), 'sessions.jsonl'), `${JSON.stringify(SessionRecordSchema.parse(record))}\n`);
}

/** Ended sessions, oldest first (lines that do not parse are skipped: the log is append-only). */
export function readSessions(store: StudyStore, studyId: string): SessionRecord[] {
  const path = join(store.dir(studyId), 'sessions.jsonl');
  if (!existsSync(path)) return [];
  return parseJsonLines(readFileSync(path, 'utf8'), SessionRecordSchema);
}

export function readDeletions(store: StudyStore, studyId: string): DeletionRecord[] {
  const path = join(store.dir(studyId), 'deletions.json');
  if (!existsSync(path)) return [];
  const parsed = DeletionsFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new StudyError(`deletions of '${studyId}': ${path} is not a deletion record file`);
  return parsed.data.deletions;
}

/** Gives a participant who has not started another slot (row of the square) and its order. */
export function assignSlot(store: StudyStore, config: StudyConfig, id: string, slot: number): Promise<Participant> {
  const cycle = config.share ? Number.POSITIVE_INFINITY : cycleLength(config.tasks.length, config.order);
  if (slot >= cycle) throw new StudyError(`slot ${slot + 1} does not exist: this study's cycle has ${cycle} order${cycle === 1 ? '' : 's'} (slots 1..${cycle})`);
  return store.updateParticipant(config.id, id, (p) => {
    if (p.status !== 'new' || p.episodes.length) throw new StudyError(`participant ${id} has already started (${p.status}): the task order can only change before the first session`);
    return { ...p, slot, order: assignedOrder(config, slot) };
  });
}

/** Marks one of a participant's episodes excluded (reason) or back in (null). */
export function setExclusion(store: StudyStore, studyId: string, id: string, taskId: string, reason: string | null, now = new Date()): Promise<Participant> {
  return store.updateParticipant(studyId, id, (p) => {
    const ep = p.episodes.find((e) => e.taskId === taskId);
    if (!ep) throw new StudyError(`participant ${id} has no episode of task '${taskId}'`);
    const episodes = p.episodes.map((e) => {
      if (e.taskId !== taskId) return e;
      const { excluded: _old, ...rest } = e;
      return reason === null ? rest : { ...rest, excluded: { reason, at: now.toISOString() } };
    });
    return { ...p, episodes };
  });
}

/** Records a withdrawal; the participant's session can never start again. */
export function recordWithdrawal(store: StudyStore, studyId: string, id: string, by: 'participant' | 'experimenter', reason: string, now = new Date()): Promise<Participant> {
  return store.updateParticipant(studyId, id, (p) => {
    if (p.status === 'deleted') throw new StudyError(`participant ${id}'s data were deleted; there is nothing to withdraw`);
    if (p.withdrawal) throw new StudyError(`participant ${id} already withdrew (${p.withdrawal.at})`);
    if (p.status === 'declined') throw new StudyError(`participant ${id} declined consent: there is no participation to withdraw from`);
    return { ...p, status: 'withdrawn', withdrawal: { at: now.toISOString(), by, reason } };
  });
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/**
 * Deletes a participant's data on request: their trajectories, their questionnaire answers,
 * consent and withdrawal details, and the study's earlier export archives; returns the record.
 */
export async function deleteParticipantData(store: StudyStore, studyId: string, id: string, requestedBy: 'participant' | 'experimenter', now = new Date()): Promise<DeletionRecord> {
  const p = store.participant(studyId, id);
  if (p.status === 'deleted') throw new StudyError(`participant ${id}'s data were already deleted (${p.deleted?.at ?? 'recorded'})`);
  const studyDir = store.dir(studyId);
  const trajDir = store.resolveIn(studyId, ['trajectories', id].join('/'));
  const exports = exportsDir(store, studyId);
  const files = [
    ...filesUnder(trajDir).map((f) => relative(studyDir, f).split(/[\\/]/).join('/')),
    ...filesUnder(exports).map((f) => `../exports/${relative(exports, f).split(/[\\/]/).join('/')}`),
  ].sort();
  rmSync(trajDir, { recursive: true, force: true });
  rmSync(exports, { recursive: true, force: true });
  const cleared: DeletionRecord['cleared'] = [];
  if (p.consent || p.consentAt) cleared.push('consent');
  if (p.answers) cleared.push('answers');
  if (p.checks) cleared.push('checks');
  if (p.withdrawal) cleared.push('withdrawal');
  if (p.episodes.length) cleared.push('episodes');
  // Session times are the participant's data too: their lines leave the sessions log.
  const sessions = readSessions(store, studyId);
  if (sessions.some((x) => x.participant === id)) {
    const kept = sessions.filter((x) => x.participant !== id);
    writeFileAtomic(join(studyDir, 'sessions.jsonl'), kept.map((x) => `${JSON.stringify(x)}\n`).join(''));
    cleared.push('sessions');
  }
  if (forgetSessionMeta(store, studyId, id) && !cleared.includes('sessions')) cleared.push('sessions');
  const at = now.toISOString();
  await store.updateParticipant(studyId, id, (x) => ({ id: x.id, created: x.created, order: x.order, ...(x.slot !== undefined ? { slot: x.slot } : {}), status: 'deleted', stage: 'thanks', taskIndex: 0, episodes: [], deleted: { at } }));
  // The journal's earlier lines still hold what was deleted: keep only the latest record per participant.
  await store.compactParticipants(studyId);
  const record: DeletionRecord = { participant: id, at, requestedBy, by: 'experimenter', files, cleared, flow: flowFlags(p) };
  writeFileAtomic(join(studyDir, 'deletions.json'), `${JSON.stringify(DeletionsFileSchema.parse({ deletions: [...readDeletions(store, studyId), record] }), null, 2)}\n`);
  return record;
}
