// The system prompt of the model runners, after the seed's environment specification: what the
// task is, the units and bounds, that invalid calls cost a call, that the grade is hidden and
// comes from unseen views, and that the episode ends on submit or when the calls run out.
// The first observation is the environment's own (reference sheet + text), never rewritten here.
// View-search tasks get their own prompt and reminder (a room to move through, `stop` with an
// answer), so a model is never told to rebuild an object there.
import type { TaskKind } from '../../shared/task/schema';

export const SYSTEM_PROMPT = [
  'You are playing a spatial-reasoning benchmark built on 3D Gaussian splatting.',
  'You see reference photos of an object from several cameras and must rebuild it (or, in reassembly, move and turn its scrambled parts back into place) using the tools.',
  'The bounds cube is [-1, 1]^3 with Z up; positions may lie in [-1.25, 1.25]. A Gaussian scale is a standard deviation, and a Gaussian stays visible to about 2-3 standard deviations.',
  'Every tool call costs one call from your budget, including invalid calls (an invalid call changes nothing). render_views and render_angle also cost one render.',
  'Each result ends with your remaining budget. The episode ends when you call submit or when the last call is spent.',
  'Your scene is graded on held-out views you never see, so work from the photos and your renders; the grade is not shown to you.',
].join('\n');

export const IDLE_REMINDER = 'Please continue by calling one of the tools; call submit when you are finished.';

export const SEARCH_SYSTEM_PROMPT = [
  'You are playing a view-search benchmark built on 3D Gaussian splatting.',
  'You see the current view of a virtual room and a question about it. Move and turn the viewpoint with the tools until you can answer, then call stop with your answer.',
  'Every tool call costs one step, including invalid calls and moves blocked by the room. Each result shows the new view and ends with your remaining steps.',
  'The episode ends when you call stop or when the steps run out (then the question counts as unanswered). Your answer is scored afterwards and the score is not shown to you.',
].join('\n');

export const SEARCH_IDLE_REMINDER = 'Please continue by calling one of the tools; call stop with your answer when you can answer the question.';

/** The system prompt and idle reminder for a task of this kind. */
export function promptsFor(kind: TaskKind): { system: string; reminder: string } {
  return kind === 'search' ? { system: SEARCH_SYSTEM_PROMPT, reminder: SEARCH_IDLE_REMINDER } : { system: SYSTEM_PROMPT, reminder: IDLE_REMINDER };
}
