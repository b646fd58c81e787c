// Study storage under <home>/studies/<study-id>/: study.json (the config), participants.jsonl (the
// participant journal), trajectories/<participant>/<task>.jsonl (written by the EpisodeManager as
// calls happen) and models/<model>/<task>.jsonl (imported model trajectories).
// Inputs: configs and participant updates from the study services. Outputs: validated records.
// Invariants: JSON files are replaced atomically (temp file + fsync + rename), so a crash leaves
// the old or the new file, never half of one; a participant write appends one fsync'd line to the
// journal (the participant's whole new record) and never rewrites the study, so a crash loses no
// acknowledged record (docs/STUDIES.md, "The participant journal"); the journal is rewritten only
// to forget a deleted participant's earlier records; every path handed out stays inside the study
// folder. Studies made before the journal keep participants.json until their first write.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readJsonChecked } from '../io/json-file';
import { withFileLock } from '../io/process-lock';
import { writeFileAtomic } from '../io/write-atomic';
import { appendRecordLine } from '../io/append-record';
import { join, resolve } from 'node:path';
import { confinedPath } from '../io/confine';
import type { z } from 'zod';
import {
  defaultTexts,
  type ParticipantTexts,
  NewStudySchema,
  ParticipantSchema,
  ParticipantsFileSchema,
  StudyConfigSchema,
  nextParticipantId,
  studySlug,
  type NewStudy,
  type Participant,
  type StudyConfig,
  type StudyTexts,
} from '../../shared/study/config';
import { assignedOrder, slotForIndex } from '../../shared/study/order';
import { nextStationParticipantId } from '../../shared/study/station';
import { DEFAULT_PROTOCOL_OPTIONS } from '../../shared/env/protocol';
import { ModelVerdictSchema, type ModelVerdict } from './verify';
import { defaultKind, kindModule } from '../../shared/kinds/registry';
import { metaPathOf, readMeta } from '../models/meta';
import { parseTrajectory } from '../env/trajectory';

/** A model run of a study (StudyStore.modelLogs). */
export interface ModelRun {
  /** The canonical name of the model and its setting (canonicalModelName). */
  model: string;
  /** Its folder under models/. */
  folder: string;
  taskId: string;
  /** 1-based run number of this model on this task. */
  run: number;
  rel: string;
  verdict: ModelVerdict | null;
}

/** The file beside an imported model's runs that keeps the name it was imported under. */
const MODEL_NAME_FILE = 'model.json';

function readImportName(folder: string): string | null {
  const path = join(folder, MODEL_NAME_FILE);
  if (!existsSync(path)) return null;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown };
    return typeof v.name === 'string' && v.name.trim() ? v.name.trim() : null;
  } catch {
    return null;
  }
}

/**
 * One name per model and setting in every table: the runner's player name (provider:model,
 * @effort and t= when set; what `splatlab eval` writes in its meta), else the name the run was
 * imported under, else the folder's name with an eval folder's default settings dropped.
 */
export function canonicalModelName(folder: string, player: string | null, imported: string | null): string {
  if (player) return player;
  if (imported) return imported;
  return folder.replace(/__effort=default_temp=default$/, '');
}

/** The calls of a log text as one string (tool, arguments, arrival time), or null without calls. */
function callsFingerprint(text: string): string | null {
  const steps = parseTrajectory(text.endsWith('\n') ? text : `${text}\n`).steps.filter((r) => r.step > 0);
  return steps.length ? steps.map((r) => JSON.stringify([r.step, r.tool, r.args, r.t])).join('\n') : null;
}

export class StudyError extends Error {
  override name = 'StudyError';
}

function readJsonFile<T>(path: string, schema: z.ZodType<T>, what: string): T {
  return readJsonChecked(path, schema, { what, error: StudyError });
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The participant journal: one participant record per line, the latest line per id wins. */
export const JOURNAL = 'participants.jsonl';

/**
 * The journal's participants, latest record per id, in order of first appearance. A line that does
 * not parse (a torn last line from a crash mid-append, never acknowledged) is skipped.
 */
export function readJournal(text: string): Participant[] {
  const latest = new Map<string, Participant>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const r = ParticipantSchema.safeParse(value);
    if (r.success) latest.set(r.data.id, r.data);
  }
  return [...latest.values()];
}

/** A model name as a folder name: letters, digits, dot, dash, underscore. */
export function modelSlug(name: string): string {
  const s = name.trim().replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 64);
  if (!s) throw new StudyError(`model name '${name}' has no usable characters (letters, digits, . _ -)`);
  return s;
}

/** A model run's file name: `<task>__r<n>.jsonl`, or an older import's `<task>.jsonl` (run 1). */
function modelRunName(name: string): { taskId: string; run: number } | null {
  if (!name.endsWith('.jsonl')) return null;
  const stem = name.slice(0, -'.jsonl'.length);
  const m = /^(.*)__r(\d+)$/.exec(stem);
  return m ? { taskId: m[1], run: Number(m[2]) } : { taskId: stem, run: 1 };
}

export class StudyStore {
  readonly root: string;

  constructor(home: string) {
    this.root = join(resolve(home), 'studies');
  }

  dir(studyId: string): string {
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(studyId)) throw new StudyError(`'${studyId}' is not a study id`);
    return join(this.root, studyId);
  }

  /** Absolute path of a file named relative to the study folder; refuses paths leaving it. */
  resolveIn(studyId: string, rel: string): string {
    try {
      return confinedPath(this.dir(studyId), rel, 'file', `study '${studyId}'`);
    } catch {
      throw new StudyError(`'${rel}' is not a file of study '${studyId}'`);
    }
  }

  list(): StudyConfig[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(this.root, e.name, 'study.json')))
      .map((e) => this.config(e.name))
      .sort((a, b) => b.created.localeCompare(a.created));
  }

  exists(studyId: string): boolean {
    return /^[a-z0-9][a-z0-9-]{0,63}$/.test(studyId) && existsSync(join(this.dir(studyId), 'study.json'));
  }

  config(studyId: string): StudyConfig {
    if (!this.exists(studyId)) throw new StudyError(`no study '${studyId}' in ${this.root}`);
    return readJsonFile(join(this.dir(studyId), 'study.json'), StudyConfigSchema, `study '${studyId}'`);
  }

  /** Creates the folder, study.json (default texts filled in) and an empty participants.json. */
  create(input: NewStudy, knownTasks: ReadonlySet<string>, now = new Date(), textsOf?: (taskId: string) => ParticipantTexts): Promise<StudyConfig> {
    return this.locked(() => this.createNow(input, knownTasks, now, textsOf));
  }

  /**
   * Read-modify-writes of the store (study ids, participant ids and records) one at a time across
   * lab processes on this home (src/main/io/process-lock.ts), so two cannot take the same id or
   * lose each other's change.
   */
  private locked<T>(work: () => T): Promise<T> {
    mkdirSync(this.root, { recursive: true });
    return withFileLock(join(this.root, 'store.lock'), work);
  }

  private createNow(input: NewStudy, knownTasks: ReadonlySet<string>, now: Date, textsOf?: (taskId: string) => ParticipantTexts): StudyConfig {
    const p = NewStudySchema.parse(input);
    for (const t of [...p.tasks, p.practiceTask]) if (!knownTasks.has(t)) throw new StudyError(`unknown task '${t}' (not in the tasks folder)`);
    const taken = new Set(existsSync(this.root) ? readdirSync(this.root) : []);
    // Default texts speak of the study's own kinds of task (practice first, then the scored ones).
    const texts: StudyTexts = { ...(textsOf ? defaultTexts([p.practiceTask, ...p.tasks].map(textsOf)) : defaultTexts([kindModule(defaultKind()).participant])), ...p.texts };
    const config = StudyConfigSchema.safeParse({
      id: studySlug(p.name, taken),
      name: p.name,
      created: now.toISOString(),
      tasks: p.tasks,
      ...(p.share ? { share: p.share } : {}),
      practiceTask: p.practiceTask,
      protocol: p.protocol,
      order: p.order,
      texts,
      consentVersions: [{ version: 1, text: texts.consent, from: now.toISOString() }],
      protocolOptions: { ...DEFAULT_PROTOCOL_OPTIONS, ...p.protocolOptions },
      questionnaires: p.questionnaires ?? { demographic: [], postTask: [] },
      ...(p.checks ? { checks: p.checks } : {}),
      ...(p.taskTimeLimitS !== undefined ? { taskTimeLimitS: p.taskTimeLimitS } : {}),
      ...(p.breaks ? { breaks: p.breaks } : {}),
    });
    if (!config.success) throw new StudyError(config.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const dir = this.dir(config.data.id);
    mkdirSync(join(dir, 'trajectories'), { recursive: true });
    writeFileAtomic(join(dir, 'study.json'), json(config.data));
    writeFileAtomic(join(dir, JOURNAL), '');
    return config.data;
  }

  /**
   * Makes a study from a configuration made elsewhere (a station file: stations.ts), under the
   * configuration's own id; a second call with the same configuration changes nothing, and one
   * with another configuration under a taken id is refused.
   */
  adopt(config: StudyConfig): Promise<{ created: boolean }> {
    return this.locked(() => {
      const parsed = StudyConfigSchema.parse(config);
      if (this.exists(parsed.id)) {
        if (JSON.stringify(this.config(parsed.id)) !== JSON.stringify(parsed)) throw new StudyError(`a study '${parsed.id}' with another configuration is already in ${this.root}`);
        return { created: false };
      }
      const dir = this.dir(parsed.id);
      mkdirSync(join(dir, 'trajectories'), { recursive: true });
      writeFileAtomic(join(dir, JOURNAL), '');
      writeFileAtomic(join(dir, 'study.json'), json(parsed));
      return { created: true };
    });
  }

  /** Runs `work` holding the store's lock (a merge writes participants of many records at once). */
  transaction<T>(work: () => T): Promise<T> {
    return this.locked(work);
  }

  /** Appends participant records under a lock the caller already holds (transaction). */
  appendParticipants(studyId: string, list: readonly Participant[]): void {
    for (const p of list) this.saveParticipant(studyId, p);
  }

  /** Replaces texts; a changed consent text becomes a new version (the old ones stay on record). */
  updateTexts(studyId: string, texts: Partial<StudyTexts>): StudyConfig {
    const old = this.config(studyId);
    const versions = old.consentVersions.length ? [...old.consentVersions] : [{ version: 1, text: old.texts.consent, from: old.created }];
    if (texts.consent !== undefined && texts.consent !== old.texts.consent) {
      versions.push({ version: (versions.at(-1)?.version ?? 0) + 1, text: texts.consent, from: new Date().toISOString() });
    }
    const config = StudyConfigSchema.parse({ ...old, texts: { ...old.texts, ...texts }, consentVersions: versions });
    writeFileAtomic(join(this.dir(studyId), 'study.json'), json(config));
    return config;
  }

  /** Every participant's latest record, in order of first appearance (creation order). */
  participants(studyId: string): Participant[] {
    const dir = this.dir(studyId);
    const journal = join(dir, JOURNAL);
    if (existsSync(journal)) return readJournal(readFileSync(journal, 'utf8'));
    const legacy = join(dir, 'participants.json');
    if (!existsSync(legacy)) return [];
    return readJsonFile(legacy, ParticipantsFileSchema, `participants of '${studyId}'`).participants;
  }

  /** Appends one participant's new record (a study still on participants.json moves to the journal first). */
  private saveParticipant(studyId: string, p: Participant): void {
    const dir = this.dir(studyId);
    const journal = join(dir, JOURNAL);
    if (!existsSync(journal)) writeFileAtomic(journal, this.participants(studyId).map((x) => `${JSON.stringify(x)}\n`).join(''));
    appendRecordLine(journal, JSON.stringify(ParticipantSchema.parse(p)));
  }

  /**
   * Rewrites the journal with each participant's latest record only: after a deletion on request,
   * so no earlier line keeps what the participant asked to have deleted.
   */
  compactParticipants(studyId: string): Promise<void> {
    return this.locked(() => this.compactNow(studyId));
  }

  /** compactParticipants for a caller already holding the lock (transaction). */
  compactNow(studyId: string): void {
    const list = this.participants(studyId);
    writeFileAtomic(join(this.dir(studyId), JOURNAL), list.map((x) => `${JSON.stringify(x)}\n`).join(''));
    rmSync(join(this.dir(studyId), 'participants.json'), { force: true });
  }


  participant(studyId: string, id: string): Participant {
    const p = this.participants(studyId).find((x) => x.id === id);
    if (!p) throw new StudyError(`no participant '${id}' in study '${studyId}'`);
    return p;
  }

  /**
   * A new pseudonymous participant with the next id and its counterbalanced task order: slot
   * (row of the Williams square) = creation index mod the cycle; the experimenter may reassign it.
   */
  addParticipant(studyId: string, now = new Date()): Promise<Participant> {
    return this.locked(() => this.addParticipantNow(studyId, now));
  }

  private addParticipantNow(studyId: string, now: Date): Participant {
    const config = this.config(studyId);
    const list = this.participants(studyId);
    const p: Participant = {
      id: config.station ? nextStationParticipantId(config.station, list.map((x) => x.id)) : nextParticipantId(list.map((x) => x.id)),
      created: now.toISOString(),
      order: assignedOrder(config, slotForIndex(config, list.length)),
      status: 'new',
      stage: 'consent',
      taskIndex: 0,
      episodes: [],
      slot: slotForIndex(config, list.length),
    };
    this.saveParticipant(studyId, p);
    return p;
  }

  /** Applies `change` to one participant and saves the file; returns the new record. */
  updateParticipant(studyId: string, id: string, change: (p: Participant) => Participant): Promise<Participant> {
    return this.locked(() => this.updateParticipantNow(studyId, id, change));
  }

  private updateParticipantNow(studyId: string, id: string, change: (p: Participant) => Participant): Participant {
    const list = this.participants(studyId);
    const i = list.findIndex((x) => x.id === id);
    if (i < 0) throw new StudyError(`no participant '${id}' in study '${studyId}'`);
    const next = change(structuredClone(list[i]));
    if (next.id !== id) throw new StudyError(`a participant update must keep the id ${id}`);
    this.saveParticipant(studyId, next);
    return next;
  }

  /** trajectories/<participant>/<task>.jsonl, relative to the study folder. */
  trajectoryRel(participant: string, taskId: string): string {
    return ['trajectories', participant, `${taskId}.jsonl`].join('/');
  }

  /**
   * Model runs of the study: models/<folder>/<task>__r<n>.jsonl (several runs side by side; a
   * plain <task>.jsonl of an older import is run 1), each with its verdict when the lab graded it.
   * `model` is the one canonical name of the model and its setting in every view
   * (canonicalModelName): the runner's player name, or the name given at import.
   */
  modelLogs(studyId: string): ModelRun[] {
    const base = join(this.dir(studyId), 'models');
    if (!existsSync(base)) return [];
    const out: ModelRun[] = [];
    for (const m of readdirSync(base, { withFileTypes: true }).filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      const given = readImportName(join(base, m.name));
      for (const f of readdirSync(join(base, m.name)).filter((n) => n.endsWith('.jsonl')).sort()) {
        const run = modelRunName(f);
        if (!run) continue;
        const rel = ['models', m.name, f].join('/');
        const meta = readMeta(metaPathOf(join(base, m.name, f)));
        out.push({ model: canonicalModelName(m.name, meta?.player ?? null, given), folder: m.name, ...run, rel, verdict: this.verdict(studyId, rel) });
      }
    }
    // Runs of one model under two folders (an import and an eval) are numbered 1.. in name order.
    const seen = new Map<string, number>();
    return out.map((r) => {
      const key = `${r.model}\u0000${r.taskId}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      return { ...r, run: n };
    });
  }

  /**
   * The study's model run with the same calls at the same times as `text` (a copy of a run
   * already imported), or null. Compared on each call's tool, arguments and arrival time.
   */
  duplicateRun(studyId: string, text: string): string | null {
    const key = callsFingerprint(text);
    if (key === null) return null;
    for (const r of this.modelLogs(studyId)) {
      if (callsFingerprint(readFileSync(this.resolveIn(studyId, r.rel), 'utf8')) === key) return r.rel;
    }
    return null;
  }

  private verdict(studyId: string, rel: string): ModelVerdict | null {
    const path = this.resolveIn(studyId, rel.replace(/\.jsonl$/, '.verdict.json'));
    if (!existsSync(path)) return null;
    const parsed = ModelVerdictSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  }

  /** Stores the lab's verdict beside a model run already in the study (`splatlab eval --study`). */
  saveVerdict(studyId: string, rel: string, verdict: ModelVerdict): void {
    if (!modelRunName(rel.split('/').pop() ?? '') || !rel.startsWith('models/')) throw new StudyError(`'${rel}' is not a model run of the study`);
    writeFileAtomic(this.resolveIn(studyId, rel.replace(/\.jsonl$/, '.verdict.json')), json(verdict));
  }

  /**
   * Stores an imported, verified model trajectory as the model's next run of the task (earlier
   * runs are never overwritten) with the lab's verdict beside it (none for a search run, which is
   * checked by its regrade); returns the log's path.
   */
  saveModelLog(studyId: string, model: string, taskId: string, text: string, verdict: ModelVerdict | null): string {
    const dir = ['models', modelSlug(model)].join('/');
    mkdirSync(this.resolveIn(studyId, dir), { recursive: true });
    // The name as given (the folder is its slug), so every view shows it unchanged.
    if (!readImportName(this.resolveIn(studyId, dir))) writeFileAtomic(this.resolveIn(studyId, `${dir}/${MODEL_NAME_FILE}`), json({ name: model }));
    // The runs already stored, from the file names alone (no log or verdict is read).
    const folder = this.resolveIn(studyId, dir);
    const names = existsSync(folder) ? readdirSync(folder) : [];
    const taken = new Set(names.map(modelRunName).filter((r) => r?.taskId === taskId).map((r) => r?.run));
    let run = 1;
    while (taken.has(run)) run++;
    const rel = `${dir}/${taskId}__r${run}.jsonl`;
    const path = this.resolveIn(studyId, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileAtomic(path, text.endsWith('\n') ? text : `${text}\n`);
    if (verdict) writeFileAtomic(this.resolveIn(studyId, rel.replace(/\.jsonl$/, '.verdict.json')), json(verdict));
    return rel;
  }
}
