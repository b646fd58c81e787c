// Study configuration and participant records (docs/DESIGN.md section 7), as zod schemas shared by the
// study LabApi rows and main's storage (study.json, the participant journal participants.jsonl).
// Inputs: what the experimenter types. Outputs: validated configs and records.
// Invariants: participant ids are pseudonymous (P01, P02, ...) and no field holds a name; the
// practice task is never one of the scored tasks; a study's protocol is fixed for all its episodes.
import { FlowFlagsSchema } from './flow';
import { ParticipantChecksSchema, StudyChecksSchema } from './checks';
import { z } from 'zod';
import { DEFAULT_PROTOCOL_OPTIONS, ProtocolOptionsSchema } from '../env/protocol';
import { StudyTimeFields } from './time';
import { shareProblem, TaskShareSchema } from './shares';
import { StationSchema } from './station';

export const StudyIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'study ids are lower-case letters, digits and dashes');
export const ParticipantIdSchema = z.string().regex(/^P\d{2,4}$/, 'participant ids look like P01');
export const TaskIdSchema = z.string().min(1).max(200);

export const StudyProtocolSchema = z.enum(['matched', 'free']);
export const StudyOrderSchema = z.enum(['fixed', 'counterbalanced']);

/** What a kind module tells participants about its tasks (TaskKindModule.participant). */
export interface ParticipantTexts {
  about: string;
  instructions: readonly string[];
}

/**
 * The default consent, instructions and thank-you of a study whose tasks are of these kinds
 * (each kind module's `participant` texts, in the order given, duplicates dropped), so a
 * relation or search study does not tell people they will build objects from Gaussians.
 */
export function defaultTexts(kinds: readonly ParticipantTexts[]): { consent: string; instructions: string; thanks: string } {
  const unique = kinds.filter((k, i) => kinds.indexOf(k) === i);
  const intro = unique.length === 1 && unique[0].about.includes('Gaussians') ? 'You are invited to take part in a study of how people rebuild 3D objects from photos.' : 'You are invited to take part in a study of how people see and reason about 3D scenes.';
  return {
    consent: [
      intro,
      `${unique.map((k) => k.about).join(' ')} Your actions and their timing are recorded under a pseudonymous id (such as P03); your name is not stored.`,
      'Taking part is voluntary. You may stop at any time without giving a reason by telling the experimenter.',
      'By pressing "I agree" you confirm that you have read this and agree to take part.',
    ].join('\n\n'),
    instructions: [...unique.flatMap((k) => k.instructions), 'The first task is a practice task that is not scored. Take your time to learn the tools there.'].join('\n\n'),
    thanks: 'Thank you for taking part! Please let the experimenter know that you have finished.',
  };
}


export const StudyTextsSchema = z.strictObject({
  consent: z.string().min(1).max(20_000),
  instructions: z.string().min(1).max(20_000),
  thanks: z.string().min(1).max(5_000),
});
export type StudyTexts = z.infer<typeof StudyTextsSchema>;

/**
 * One question of a study questionnaire: a choice among options, a free text, or a 1..N scale.
 * Ids name the answer columns of the export, so they are short snake_case words.
 */
export const QuestionSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'question ids are short snake_case words'),
  kind: z.enum(['choice', 'text', 'scale']),
  prompt: z.string().min(1).max(500),
  /** The choices of a 'choice' question. */
  options: z.array(z.string().min(1).max(120)).max(12).optional(),
  /** The top of a 'scale' question (1..max). */
  max: z.number().int().min(2).max(10).optional(),
  /** Left and right labels of a scale. */
  labels: z.tuple([z.string().max(60), z.string().max(60)]).optional(),
  required: z.boolean().default(false),
});
export type Question = z.infer<typeof QuestionSchema>;

/** Questionnaires of a study: once after consent (demographic) and after each scored task. */
export const QuestionnairesSchema = z.strictObject({
  demographic: z.array(QuestionSchema).max(20).default([]),
  postTask: z.array(QuestionSchema).max(20).default([]),
});
export type Questionnaires = z.infer<typeof QuestionnairesSchema>;

/** The standard set offered when a study is created: vision, colour vision, strategy, confidence. */
export const DEFAULT_QUESTIONNAIRES: Questionnaires = {
  demographic: [
    { id: 'vision', kind: 'choice', prompt: 'Is your vision normal or corrected to normal (glasses, contact lenses)?', options: ['normal', 'corrected to normal', 'neither', 'prefer not to say'], required: false },
    { id: 'colour_vision', kind: 'choice', prompt: 'Do you have any form of colour blindness?', options: ['no', 'yes', 'not sure', 'prefer not to say'], required: false },
  ],
  postTask: [
    { id: 'confidence', kind: 'scale', prompt: 'How confident are you that your build matches the object?', max: 7, labels: ['not at all', 'completely'], required: false },
    { id: 'strategy', kind: 'text', prompt: 'In a sentence or two: how did you go about this task?', required: false },
  ],
};

/** One questionnaire's answers: question id -> the text chosen or typed, or the scale value. */
export const AnswersSchema = z.record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), z.union([z.string().max(2_000), z.number().int()]));
export type Answers = z.infer<typeof AnswersSchema>;

/** Checks answers against their questions; returns the one-line problem or null. */
export function answersProblem(questions: readonly Question[], answers: Answers): string | null {
  for (const id of Object.keys(answers)) if (!questions.some((q) => q.id === id)) return `'${id}' is not a question of this questionnaire`;
  for (const q of questions) {
    const a = answers[q.id];
    if (a === undefined || a === '') {
      if (q.required) return `please answer: ${q.prompt}`;
      continue;
    }
    if (q.kind === 'scale' && (typeof a !== 'number' || a < 1 || a > (q.max ?? 7))) return `'${q.id}' takes a number from 1 to ${q.max ?? 7}`;
    if (q.kind === 'choice' && (typeof a !== 'string' || !(q.options ?? []).includes(a))) return `'${q.id}' takes one of: ${(q.options ?? []).join(', ')}`;
    if (q.kind === 'text' && typeof a !== 'string') return `'${q.id}' takes a text`;
  }
  return null;
}

/** Scored tasks one participant may play, and tasks a study may hold when participants play shares. */
export const MAX_TASKS_EACH = 24;
export const MAX_STUDY_TASKS = 200;

/** How many scored tasks each participant plays: the share, or every task. */
export function tasksEach(study: { tasks: readonly string[]; share?: { perParticipant: number } }): number {
  return study.share ? study.share.perParticipant : study.tasks.length;
}

const StudyBase = z.strictObject({
  id: StudyIdSchema,
  name: z.string().min(1).max(120),
  created: z.string(),
  /** Scored tasks in their base order (counterbalancing permutes this list per participant). */
  tasks: z.array(TaskIdSchema).min(1).max(MAX_STUDY_TASKS),
  /** Each participant plays a balanced share of the tasks (shares.ts); absent: every task. */
  share: TaskShareSchema.optional(),
  /** Set on a station's copy of the study (station.ts): its participant ids and plan places. */
  station: StationSchema.optional(),
  practiceTask: TaskIdSchema,
  protocol: StudyProtocolSchema,
  order: StudyOrderSchema,
  texts: StudyTextsSchema,
  /**
   * Every consent text the study has shown, oldest first; `texts.consent` is the last one. Editing
   * the consent text adds a version, so what each participant agreed to stays on record.
   */
  consentVersions: z.array(z.strictObject({ version: z.number().int().positive(), text: z.string(), from: z.string() })).default([]),
  /** Aids the participants get (recorded in every trajectory); a study may switch them off. */
  protocolOptions: ProtocolOptionsSchema.default(DEFAULT_PROTOCOL_OPTIONS),
  /** Optional questionnaires (none in studies made before they existed). */
  questionnaires: QuestionnairesSchema.default({ demographic: [], postTask: [] }),
  /** Comprehension check after the instructions, attention checks between tasks (checks.ts). */
  checks: StudyChecksSchema.default({ attention: [] }),
  /** Time limit per task and scheduled breaks (src/shared/study/time.ts). */
  ...StudyTimeFields,
});

export const StudyConfigSchema = StudyBase.superRefine((s, ctx) => {
  if (new Set(s.tasks).size !== s.tasks.length) ctx.addIssue({ code: 'custom', path: ['tasks'], message: 'a task appears twice' });
  if (s.tasks.includes(s.practiceTask)) ctx.addIssue({ code: 'custom', path: ['practiceTask'], message: 'the practice task must not be one of the scored tasks' });
  for (const [name, qs] of Object.entries(s.questionnaires)) {
    if (new Set(qs.map((q) => q.id)).size !== qs.length) ctx.addIssue({ code: 'custom', path: ['questionnaires', name], message: 'a question id appears twice' });
    for (const q of qs) if (q.kind === 'choice' && !(q.options?.length)) ctx.addIssue({ code: 'custom', path: ['questionnaires', name], message: `choice question '${q.id}' has no options` });
  }
  if (s.share) {
    const problem = shareProblem(s.tasks, s.share);
    if (problem) ctx.addIssue({ code: 'custom', path: ['share'], message: problem });
  } else if (s.tasks.length > MAX_TASKS_EACH) ctx.addIssue({ code: 'custom', path: ['tasks'], message: `${s.tasks.length} tasks are too many for one participant (at most ${MAX_TASKS_EACH}): give each participant a share` });
  for (const c of s.checks.attention) if (c.afterTask > tasksEach(s)) ctx.addIssue({ code: 'custom', path: ['checks', 'attention'], message: `attention check '${c.id}' comes after task ${c.afterTask}, but the study has ${s.tasks.length}` });
});
export type StudyConfig = z.infer<typeof StudyConfigSchema>;

/** What the experimenter sends to create a study (id and dates are made by main). */
export const NewStudySchema = z.strictObject({
  name: z.string().trim().min(1).max(120),
  tasks: z.array(TaskIdSchema).min(1).max(MAX_STUDY_TASKS),
  share: TaskShareSchema.optional(),
  practiceTask: TaskIdSchema,
  protocol: StudyProtocolSchema.default('matched'),
  order: StudyOrderSchema.default('counterbalanced'),
  texts: StudyTextsSchema.partial().optional(),
  protocolOptions: ProtocolOptionsSchema.optional(),
  questionnaires: QuestionnairesSchema.optional(),
  checks: StudyChecksSchema.optional(),
  ...StudyTimeFields,
});
export type NewStudy = z.input<typeof NewStudySchema>;

/** Where a participant stands: the screen they see next. */
export const SessionStageSchema = z.enum(['consent', 'demographics', 'instructions', 'comprehension', 'practice', 'task', 'post-task', 'attention', 'thanks']);

export const EpisodeStatusSchema = z.enum(['started', 'submitted']);

/** One task a participant played: its log path relative to the study folder. */
export const ParticipantEpisodeSchema = z.strictObject({
  taskId: TaskIdSchema,
  practice: z.boolean(),
  log: z.string(),
  status: EpisodeStatusSchema,
  started: z.string(),
  ended: z.string().optional(),
  /** Excluded by the experimenter: kept in the export, left out of every statistic. */
  excluded: z.strictObject({ reason: z.string().min(1).max(500), at: z.string() }).optional(),
});
export type ParticipantEpisode = z.infer<typeof ParticipantEpisodeSchema>;

export const ParticipantStatusSchema = z.enum(['new', 'in-session', 'paused', 'completed', 'declined', 'withdrawn', 'deleted']);

export const ParticipantSchema = z.strictObject({
  id: ParticipantIdSchema,
  created: z.string(),
  /** Scored task order for this participant (fixed at creation). */
  order: z.array(TaskIdSchema),
  status: ParticipantStatusSchema,
  stage: SessionStageSchema,
  /** Index into `order` of the current scored task (stage 'task'). */
  taskIndex: z.number().int().nonnegative(),
  consentAt: z.string().optional(),
  /** The consent decision: agreed or declined, when, and which version of the text (issue 11). */
  consent: z.strictObject({ decision: z.enum(['agreed', 'declined']), at: z.string(), version: z.number().int().positive() }).optional(),
  episodes: z.array(ParticipantEpisodeSchema),
  /** Row of the Williams square this participant's order comes from (0-based). */
  slot: z.number().int().nonnegative().optional(),
  /** Withdrawal: when, by whom (the participant on screen or the experimenter) and why. */
  withdrawal: z.strictObject({ at: z.string(), by: z.enum(['participant', 'experimenter']), reason: z.string().min(1).max(500) }).optional(),
  /** Questionnaire answers: the demographic one and one per scored task. */
  answers: z
    .strictObject({
      demographic: z.strictObject({ at: z.string(), values: AnswersSchema }).optional(),
      postTask: z.record(TaskIdSchema, z.strictObject({ at: z.string(), values: AnswersSchema })).default({}),
    })
    .optional(),
  /** Comprehension attempts and attention checks answered (checks.ts). */
  checks: ParticipantChecksSchema.optional(),
  /** Set when the participant's data were deleted on request (the record keeps no data). */
  deleted: z.strictObject({ at: z.string() }).optional(),
});
export type Participant = z.infer<typeof ParticipantSchema>;

export const ParticipantsFileSchema = z.strictObject({ participants: z.array(ParticipantSchema) });

/**
 * The record that a participant's data were deleted: who asked, who did it, when, and which
 * files went (paths name only the participant id and task ids); it holds no data.
 */
export const DeletionRecordSchema = z.strictObject({
  participant: ParticipantIdSchema,
  at: z.string(),
  requestedBy: z.enum(['participant', 'experimenter']),
  by: z.literal('experimenter'),
  files: z.array(z.string()),
  /** What else was cleared from the participant record. */
  cleared: z.array(z.enum(['consent', 'answers', 'withdrawal', 'episodes', 'sessions', 'checks'])),
  /** Where the participant got to (flow.ts): booleans only, so the study's flow counts survive the deletion. */
  flow: FlowFlagsSchema.optional(),
});
export type DeletionRecord = z.infer<typeof DeletionRecordSchema>;
export const DeletionsFileSchema = z.strictObject({ deletions: z.array(DeletionRecordSchema) });

/** A study id from its name: `Pilot A (May)` -> `pilot-a-may`, with a suffix when taken. */
export function studySlug(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'study';
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** Next pseudonymous id: P01, P02, ... (three digits from P100 on). */
export function nextParticipantId(existing: readonly string[]): string {
  const max = existing.reduce((m, id) => Math.max(m, Number(id.slice(1)) || 0), 0);
  return `P${String(max + 1).padStart(2, '0')}`;
}

/** The version number of the consent text a participant sees now (1 for studies made before versions). */
export function currentConsentVersion(config: Pick<StudyConfig, 'consentVersions'>): number {
  return config.consentVersions.at(-1)?.version ?? 1;
}
