// Study configuration and participant records (docs/DESIGN.md section 7), as zod schemas shared by the
// study LabApi rows and main's storage (study.json, participants.json).
// Inputs: what the experimenter types. Outputs: validated configs and records.
// Invariants: participant ids are pseudonymous (P01, P02, ...) and no field holds a name; the
// practice task is never one of the scored tasks; a study's protocol is fixed for all its episodes.
import { z } from 'zod';
import { DEFAULT_PROTOCOL_OPTIONS, ProtocolOptionsSchema } from '../api/episode';
import { StudyTimeFields } from './time';

export const StudyIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'study ids are lower-case letters, digits and dashes');
export const ParticipantIdSchema = z.string().regex(/^P\d{2,4}$/, 'participant ids look like P01');
export const TaskIdSchema = z.string().min(1).max(200);

export const StudyProtocolSchema = z.enum(['matched', 'free']);
export const StudyOrderSchema = z.enum(['fixed', 'counterbalanced']);

export const DEFAULT_TEXTS = {
  consent: [
    'You are invited to take part in a study of how people rebuild 3D objects from photos.',
    'You will see eight photos of an object and build it from coloured 3D blobs ("Gaussians") with a limited number of actions. Your actions and their timing are recorded under a pseudonymous id (such as P03); your name is not stored.',
    'Taking part is voluntary. You may stop at any time without giving a reason by telling the experimenter.',
    'By pressing "I agree" you confirm that you have read this and agree to take part.',
  ].join('\n\n'),
  instructions: [
    'Each task shows reference photos of an object from eight angles. Rebuild the object by placing, editing, moving and deleting Gaussians in the 3D view.',
    'Your edits are staged first; pressing Commit sends them as one action. Every action (a commit, a render, viewing the references) uses one call from your call budget, and renders also use your render budget. The budgets are always shown on screen.',
    'You can render your build from the reference angles to compare it with the photos, or from any other angle. When you are happy, press Submit; the task also ends when your calls run out.',
    'Your build is scored afterwards from angles you never see. Scores are hidden during the study, so you will not see how well you did.',
    'The first task is a practice task that is not scored. Take your time to learn the tools there.',
  ].join('\n\n'),
  thanks: 'Thank you for taking part! Please let the experimenter know that you have finished.',
} as const;

export const StudyTextsSchema = z.strictObject({
  consent: z.string().min(1).max(20_000),
  instructions: z.string().min(1).max(20_000),
  thanks: z.string().min(1).max(5_000),
});
export type StudyTexts = z.infer<typeof StudyTextsSchema>;

const StudyBase = z.strictObject({
  id: StudyIdSchema,
  name: z.string().min(1).max(120),
  created: z.string(),
  /** Scored tasks in their base order (counterbalancing permutes this list per participant). */
  tasks: z.array(TaskIdSchema).min(1).max(24),
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
  /** Time limit per task and scheduled breaks (src/shared/study/time.ts). */
  ...StudyTimeFields,
});

export const StudyConfigSchema = StudyBase.superRefine((s, ctx) => {
  if (new Set(s.tasks).size !== s.tasks.length) ctx.addIssue({ code: 'custom', path: ['tasks'], message: 'a task appears twice' });
  if (s.tasks.includes(s.practiceTask)) ctx.addIssue({ code: 'custom', path: ['practiceTask'], message: 'the practice task must not be one of the scored tasks' });
});
export type StudyConfig = z.infer<typeof StudyConfigSchema>;

/** What the experimenter sends to create a study (id and dates are made by main). */
export const NewStudySchema = z.strictObject({
  name: z.string().trim().min(1).max(120),
  tasks: z.array(TaskIdSchema).min(1).max(24),
  practiceTask: TaskIdSchema,
  protocol: StudyProtocolSchema.default('matched'),
  order: StudyOrderSchema.default('counterbalanced'),
  texts: StudyTextsSchema.partial().optional(),
  protocolOptions: ProtocolOptionsSchema.optional(),
  ...StudyTimeFields,
});
export type NewStudy = z.input<typeof NewStudySchema>;

/** Where a participant stands: the screen they see next. */
export const SessionStageSchema = z.enum(['consent', 'instructions', 'practice', 'task', 'thanks']);
export type SessionStage = z.infer<typeof SessionStageSchema>;

export const EpisodeStatusSchema = z.enum(['started', 'submitted']);

/** One task a participant played: its log path relative to the study folder. */
export const ParticipantEpisodeSchema = z.strictObject({
  taskId: TaskIdSchema,
  practice: z.boolean(),
  log: z.string(),
  status: EpisodeStatusSchema,
  started: z.string(),
  ended: z.string().optional(),
});
export type ParticipantEpisode = z.infer<typeof ParticipantEpisodeSchema>;

export const ParticipantStatusSchema = z.enum(['new', 'in-session', 'paused', 'completed', 'declined']);
export type ParticipantStatus = z.infer<typeof ParticipantStatusSchema>;

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
});
export type Participant = z.infer<typeof ParticipantSchema>;

export const ParticipantsFileSchema = z.strictObject({ participants: z.array(ParticipantSchema) });

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
