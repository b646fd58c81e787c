// One entry of the task registry (docs/AGENTS.md "Tasks"): what `splatlab tasks`, the MCP
// start_episode schema, the RL protocol's GET /tasks and the eval planner list for every task:
// its kind and family, budgets, split, where its data come from and a content hash.
// Invariant: public data only (no answers, no held-out views, no anchors); the hash covers the
// spec and every data file, so two machines with the same hash play the same task.
import { z } from 'zod';
import { TaskSummarySchema } from './schema';

export const TASK_SPLITS = ['test', 'practice', 'train', 'dev'] as const;

export const TaskEntrySchema = z.strictObject({
  id: z.string(),
  kind: z.string(),
  family: z.string().describe('the kind module: splatbench (sculpt, reassembly, oneshot), search, relation'),
  budgets: z.strictObject({ max_tool_calls: z.number().int(), max_gaussians: z.number().int().optional().describe('SplatBench only'), max_renders: z.number().int().optional().describe('SplatBench only') }),
  split: z.enum(TASK_SPLITS).describe("the spec's own split, else practice for practice tasks and test for the rest"),
  source: z.string().describe('the data the task is made from, relative to the tasks folder (object folder, room, trial parameters)'),
  content_hash: z.string().describe('sha256 over the spec file and every data file: for each, its path relative to the tasks folder and the sha256 of its bytes, sorted by path'),
});
export type TaskEntry = z.infer<typeof TaskEntrySchema>;

/**
 * One row of the lab's task list (LabApi tasks.list): the registry's entry, exactly as
 * `splatlab tasks --json` prints it, beside the public summary the screens draw from (object or
 * room, reference views, whether it starts from scrambled parts). Both come from one read.
 */
export const TaskListItemSchema = TaskSummarySchema.extend({ entry: TaskEntrySchema });
export type TaskListItem = z.infer<typeof TaskListItemSchema>;
