// The search tools as zod schemas (docs/DESIGN.md section 9): one tool per motion action and
// `stop` with the answer. The single source of argument validation, the JSON Schema for agents
// and the docs. Invariant: motion tools take no arguments; `stop` takes one answer string.
import { z } from 'zod';
import { MOTION_ACTIONS, type MotionAction } from './pose';

const empty = (what: string) => z.strictObject({}).describe(`${what} Cost: 1 step.`);

const MOTION_TEXT: Record<MotionAction, string> = {
  move_forward: 'Move 0.25 m forward along the heading (level with the floor).',
  move_back: 'Move 0.25 m back along the heading.',
  move_left: 'Step 0.25 m to the left.',
  move_right: 'Step 0.25 m to the right.',
  move_up: 'Move 0.25 m up.',
  move_down: 'Move 0.25 m down.',
  turn_left: 'Turn 30 degrees to the left.',
  turn_right: 'Turn 30 degrees to the right.',
  look_up: 'Tilt the view 30 degrees up (pitch is clamped).',
  look_down: 'Tilt the view 30 degrees down (pitch is clamped).',
};

export const SEARCH_TOOL_SCHEMAS = {
  ...(Object.fromEntries(MOTION_ACTIONS.map((a) => [a, empty(MOTION_TEXT[a])])) as Record<MotionAction, z.ZodObject>),
  stop: z.strictObject({ answer: z.string().min(1).max(200).describe('Your answer to the question.') })
    .describe('Stop here and answer the question. Ends the episode. Cost: 1 step.'),
};
export const SEARCH_TOOL_NAMES = [...MOTION_ACTIONS, 'stop'] as const;

export function searchToolSpecs(): { name: string; description: string; parameters: Record<string, unknown> }[] {
  return SEARCH_TOOL_NAMES.map((name) => {
    const schema = SEARCH_TOOL_SCHEMAS[name];
    const parameters = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
    delete parameters.description;
    return { name, description: schema.description ?? '', parameters };
  });
}
