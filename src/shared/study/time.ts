// A study's time settings (issue 11, "Honest time"): an optional active-time limit per scored
// task and scheduled breaks between scored tasks. Shared by the study config schema
// (src/shared/study/config.ts spreads these fields) and the session flow.
// Invariant: only active time counts toward the limit (src/shared/env/time.ts); a break is a
// pause between tasks, never inside one.
import { z } from 'zod';

export const StudyBreakSchema = z.strictObject({
  /** After this many scored tasks are done (1 = after the first). */
  afterTask: z.number().int().positive(),
  /** The shortest break the participant is offered, in seconds (0: a break they may skip). */
  seconds: z.number().int().nonnegative().max(3600),
});
export type StudyBreak = z.infer<typeof StudyBreakSchema>;

export const StudyTimeFields = {
  /** Active seconds per scored task (pauses and lost connections do not count); the first call after it submits. */
  taskTimeLimitS: z.number().positive().max(86_400).optional(),
  /** Breaks between scored tasks. */
  breaks: z.array(StudyBreakSchema).max(24).optional(),
};

/** The break due once `completed` scored tasks are done (none after the last task). */
export function breakAfter(study: { tasks: readonly string[]; share?: { perParticipant: number }; breaks?: readonly StudyBreak[] }, completed: number): StudyBreak | null {
  const each = study.share ? study.share.perParticipant : study.tasks.length;
  if (completed <= 0 || completed >= each) return null;
  return study.breaks?.find((b) => b.afterTask === completed) ?? null;
}
