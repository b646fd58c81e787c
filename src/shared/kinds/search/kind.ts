// The search task kind as a module (docs/DESIGN.md sections 9 and 13): view search in 3DGS rooms.
// Its spec schema (tasks/<task_id>.json: the room file, the question and its exact answer,
// the start, goal and answerable viewpoints, the budget and motion config; captured rooms add the
// annotation's pose tolerance, optional fields so procedural tasks parse unchanged), the eleven tools,
// its trajectory fields and the pure rules. Input: a spec and the room's collider.
// Invariant: nothing hidden (answer, answerable viewpoints, goal) reaches the rules' text.
import { z } from 'zod';
import { TaskSpecHeadSchema } from '../../task/schema';
import { EndRecordSchema, StepRecordSchema, TrajectoryHeaderSchema } from '../../env/trajectory-schema';
import { AnswerSchema } from './answers';
import type { Collider } from './collide';
import { DEFAULT_MOTION } from './pose';
import { QUESTION_FAMILIES } from './questions';
import { SearchRules, type SearchConfig } from './rules';
import { SEARCH_TOOL_SCHEMAS, searchToolSpecs } from './tools';
import type { TaskKindModule } from '../kind';

const finite = z.number().refine(Number.isFinite, 'must be finite');
export const PoseSchema = z.strictObject({ x: finite, y: finite, z: finite, yaw: finite, pitch: finite });

export const SearchQuestionSchema = z.strictObject({
  id: z.string(),
  family: z.enum(QUESTION_FAMILIES),
  text: z.string().min(1),
  answer: AnswerSchema,
  needs: z.array(z.string()).min(1),
});

const FilterAnswerSchema = z.strictObject({ answer: z.string().nullable(), mark: z.number().int().nullable() });

/** One task's record of the answerability filter (src/main/kinds/search/answerability-filter.ts). */
export const AnswerabilityFilterSchema = z.strictObject({
  model: z.string(),
  judge: z.string(),
  prompt_hash: z.string(),
  /** Judge marks at or above this exclude the task (E3VS: 3). */
  threshold: z.number(),
  blind: FilterAnswerSchema,
  start_view: FilterAnswerSchema,
  /** Side in pixels of the start view the runner saw and of the start and goal views the judge saw (absent: the observation's 512). */
  image_size: z.number().int().positive().optional(),
  at: z.string(),
});
export type AnswerabilityFilter = z.infer<typeof AnswerabilityFilterSchema>;

export const SearchTaskSpecSchema = TaskSpecHeadSchema.extend({
  kind: z.literal('search'),
  /** Room document, relative to the tasks folder: a procedural room (search/rooms/<name>.json) or a
   * captured room (search/captures/<name>.json, `"type": "capture"`). */
  room: z.string().regex(/^[A-Za-z0-9_./-]+\.json$/, 'room is a .json path inside the tasks folder').refine((p) => !p.split('/').includes('..'), 'room may not leave the tasks folder'),
  question: SearchQuestionSchema,
  start: PoseSchema,
  goal: PoseSchema,
  answerable: z.array(PoseSchema).min(1),
  /** BFS actions from start to goal when the task was made. */
  distance: z.number().int().nonnegative(),
  max_steps: z.number().int().positive().max(200).default(25),
  motion: z.strictObject({
    step: z.number().positive().default(DEFAULT_MOTION.step),
    turn: z.number().positive().default(DEFAULT_MOTION.turn),
    pitch_min: z.number().min(-90).default(DEFAULT_MOTION.pitchMin),
    pitch_max: z.number().max(90).default(DEFAULT_MOTION.pitchMax),
  }).default({ step: DEFAULT_MOTION.step, turn: DEFAULT_MOTION.turn, pitch_min: DEFAULT_MOTION.pitchMin, pitch_max: DEFAULT_MOTION.pitchMax }),
  /** Camera sphere radius in metres. */
  radius: z.number().positive().max(1).default(0.1),
  /** E3VS's rule, on by default: a call that cannot be read as an action is taken as move_forward (still one step). */
  default_forward: z.boolean().default(true),
  /** The scene-level split of the task's room (train, val or test; every task of one room shares it). */
  split: z.enum(['train', 'val', 'test']).optional(),
  /** Captured rooms: a pose answers when within this of a stored answerable pose (absent: procedural, visibility rule). */
  tolerance: z.strictObject({ position: z.number().positive().max(2), angle: z.number().positive().max(90) }).optional(),
  /** Captured rooms: the annotation document the task was exported from (search/annotations/<id>.json). */
  annotation: z.string().optional(),
  /**
   * E3VS's answerability filter, when run (`search filter`): a runner's blind and start-view
   * answers, each marked by the judge; a task with a mark of 3 or more is excluded (listed in
   * search/answerability-filter.json), so a kept task records marks below 3.
   */
  answerability_filter: AnswerabilityFilterSchema.optional(),
});
export type SearchTaskSpec = z.infer<typeof SearchTaskSpecSchema>;

/** The hidden part of a search step record (never shown to the player). */
export const SearchHiddenSchema = z.strictObject({
  distance: z.number().describe('metres from the viewpoint to the nearest stored answerable viewpoint'),
  answerable: z.boolean().describe('the current view answers the question (visibility rule)'),
  pose: PoseSchema.describe('the viewpoint after the call'),
  collided: z.boolean().describe('the call was a move that collided'),
}).describe('search: hidden per-step data');

export const SearchStepRecordSchema = StepRecordSchema.extend({ search: SearchHiddenSchema.optional() });
export const SearchEndRecordSchema = EndRecordSchema.extend({
  answer: z.string().nullable().describe('search: the answer given at stop (null when the steps ran out)'),
  answer_read: z.string().nullable().optional().describe('search: what the exact checker read in the answer (docs/TASKS.md, "Answer checking"); null when it read nothing'),
  correct: z.boolean().describe('search: the answer is exactly right (checker of its answer type)'),
  scored_by: z.enum(['exact', 'judge']).optional().describe('search: which scorer the accuracy comes from: exact (closed answer type, this score is final) or judge (open answer: this score is the exact checker\'s provisional reading until the judge marks it)'),
  success: z.boolean().describe('search: stopped at an answerable viewpoint'),
  steps: z.number().int().describe('search: steps used'),
  path_length: z.number().describe('search: metres moved'),
  collisions: z.number().int().describe('search: moves that collided'),
  collision: z.union([z.literal(0), z.literal(1)]).describe('search: 1 if any collision in the episode'),
  final_distance: z.number().describe('search: metres from the final viewpoint to the nearest answerable one'),
});

export function searchConfig(spec: SearchTaskSpec): SearchConfig {
  return {
    question: spec.question.text,
    choices: spec.question.answer.type === 'choice' ? spec.question.answer.choices : [],
    start: spec.start,
    maxSteps: spec.max_steps,
    motion: { step: spec.motion.step, turn: spec.motion.turn, pitchMin: spec.motion.pitch_min, pitchMax: spec.motion.pitch_max },
    radius: spec.radius,
    defaultForward: spec.default_forward,
  };
}

export function searchRules(spec: SearchTaskSpec, collider: Collider): SearchRules {
  return new SearchRules(searchConfig(spec), collider);
}

export const SEARCH_SYSTEM_PROMPT = [
  'You are playing a view-search benchmark built on 3D Gaussian splatting.',
  'You see the current view of a virtual room and a question about it. Move and turn the viewpoint with the tools until you can answer, then call stop with your answer.',
  'Every tool call costs one step, including invalid calls and moves blocked by the room. Each result shows the new view and ends with your remaining steps.',
  'The episode ends when you call stop or when the steps run out (then the question counts as unanswered). Your answer is scored afterwards and the score is not shown to you.',
].join('\n');

export const SEARCH_IDLE_REMINDER = 'Please continue by calling one of the tools; call stop with your answer when you can answer the question.';

export const searchKind: TaskKindModule = {
  family: 'search',
  title: 'View search',
  summary: 'Move a viewpoint through a room of Gaussians in 5-DoF steps until the question can be answered, then stop with the answer (in the spirit of E3VS-Bench).',
  kinds: ['search'],
  specSchema: SearchTaskSpecSchema,
  tools: SEARCH_TOOL_SCHEMAS,
  toolSpecs: () => searchToolSpecs(),
  giveUp: { tool: 'stop', args: { answer: 'I do not know' } },
  score: { unit: 'exact accuracy %', what: 'answer accuracy 0-100 by the exact checker at the end record (final for closed answers; for open answers a provisional reading: open answers, the default, are scored by the judge in Results; the end record\'s scored_by says which)' },
  participant: {
    about: 'You will move a viewpoint through a virtual room with the keyboard until you can answer a question about it, with a limited number of steps.',
    instructions: [
      'Each task shows the current view of a room and a question about it. Move and turn with the keys shown on screen; each move or turn uses one step, and the steps left are always shown.',
      'When you can answer, type or choose your answer and stop. The task also ends when your steps run out.',
      'Your answers are scored afterwards. Scores are hidden during the study, so you will not see how well you did.',
    ],
  },
  agent: { system: SEARCH_SYSTEM_PROMPT, reminder: SEARCH_IDLE_REMINDER },
  trajectory: { header: TrajectoryHeaderSchema, step: SearchStepRecordSchema, end: SearchEndRecordSchema },
};
