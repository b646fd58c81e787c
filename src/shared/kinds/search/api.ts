// LabApi rows of the search annotation view (docs/DESIGN.md section 9): list and open room
// documents (procedural or captured), look from a pose and move by one action (the player's
// collider and step sizes, or fine free-flight steps), save a first annotation, open one blind
// for verification, record the verifier's part and the agreement, turn an agreed annotation into
// a task, and export the search task set as JSON episodes. Merged into labMethods in ./lab.ts.
// Invariant: experimenter rows only (none is in PARTICIPANT_ROWS); the blind row never carries
// the first annotator's answer or marks.
import { z } from 'zod';
import { AgreementSchema, AnnotationIdSchema, AnnotationSchema, AnnotatorIdSchema, MarkSchema } from './annotation';
import { MOTION_ACTIONS } from './pose';
import { QUESTION_FAMILIES } from './questions';
import { Empty, PngDataUrl } from '../schemas';

const finite = z.number().refine(Number.isFinite, 'must be finite');
export const ViewPoseSchema = z.strictObject({ x: finite, y: finite, z: finite, yaw: finite, pitch: finite });
const RoomPath = z.string().regex(/^[A-Za-z0-9_./-]+\.json$/, 'a room is a .json path inside the tasks folder').max(300);

export const SearchRoomRowSchema = z.strictObject({ path: z.string(), kind: z.enum(['procedural', 'capture']), name: z.string() });

export const AnnotationRowSchema = z.strictObject({
  id: z.string(),
  room: z.string(),
  family: z.enum(QUESTION_FAMILIES),
  question: z.string(),
  first: z.string(),
  second: z.string().nullable(),
  agreement: AgreementSchema.nullable(),
  taskId: z.string().nullable().describe('the exported task, when it exists'),
});

export const BlindAnnotationSchema = z.strictObject({
  id: z.string(), room: z.string(), question: AnnotationSchema.shape.question,
  answerType: z.enum(['choice', 'yesno', 'number', 'text']), choices: z.array(z.string()), start: ViewPoseSchema,
});

export const searchMethods = {
  'search.rooms': { params: Empty, result: z.array(SearchRoomRowSchema), doc: 'Room documents of the tasks folder: procedural rooms (search/rooms) and captured rooms (search/captures).' },
  'search.open': {
    params: z.strictObject({ room: RoomPath }),
    result: z.strictObject({ room: z.string(), kind: z.enum(['procedural', 'capture']), start: ViewPoseSchema, radius: z.number(), gaussians: z.number().int(), lines: z.array(z.string()) }),
    doc: 'Opens a room for annotation (Gaussians and collider built once per lab): a suggested start pose, the camera radius and what loading decided.',
  },
  'search.look': {
    params: z.strictObject({ room: RoomPath, pose: ViewPoseSchema, size: z.number().int().min(32).max(512).default(512) }),
    result: z.strictObject({ image: PngDataUrl }),
    doc: 'The view of an open room from a pose (square, 90 degrees horizontal FOV; 512 px as a player sees it, smaller for thumbnails).',
  },
  'search.move': {
    params: z.strictObject({ room: RoomPath, pose: ViewPoseSchema, action: z.enum(MOTION_ACTIONS), fine: z.boolean().default(false) }),
    result: z.strictObject({ pose: ViewPoseSchema, collided: z.boolean() }),
    doc: 'One action from a pose with the swept-sphere collision test: the player\'s 0.25 m / 30 degree steps, or fine free-flight steps (0.05 m / 5 degrees).',
  },
  'search.annotations': { params: Empty, result: z.array(AnnotationRowSchema), doc: 'Annotation documents (search/annotations): question, annotators, agreement and exported task.' },
  'search.annotation.save': {
    params: AnnotationSchema.omit({ second: true, agreement: true }),
    result: z.strictObject({ id: z.string() }),
    doc: "Saves the first annotator's document (question, answer, start, marks with thumbnails); refused for a verified id.",
  },
  'search.annotation.blind': {
    params: z.strictObject({ id: AnnotationIdSchema }),
    result: BlindAnnotationSchema,
    doc: 'What the verifier may see of an annotation: room, question, answer type (and choices), start; never the answer or the marks.',
  },
  'search.annotation.verify': {
    params: z.strictObject({ id: AnnotationIdSchema, annotator: AnnotatorIdSchema, started: z.string(), answer: z.string().min(1).max(200), marks: z.array(MarkSchema) }),
    result: z.strictObject({ agreement: AgreementSchema }),
    doc: "Records the second annotator's answer, marks and times and the agreement (answer, shared-pose marks, percent, Cohen's kappa).",
  },
  'search.annotation.export': {
    params: z.strictObject({ id: AnnotationIdSchema }),
    result: z.strictObject({ taskId: z.string(), bfsSteps: z.number().int().nullable() }),
    doc: 'Turns an agreed annotation into a search task in the tasks folder (refused unless the annotators agreed and the task conforms).',
  },
  'search.export': {
    params: z.strictObject({}),
    result: z.strictObject({ dir: z.string(), episodes: z.number().int(), scenes: z.number().int() }),
    doc: "Exports the tasks folder's search tasks as JSON episodes with goal images and scenes into the lab home's exports folder (progress events; cancellable).",
  },
  'search.export.cancel': { params: z.strictObject({}), result: z.strictObject({ cancelled: z.boolean() }), doc: 'Cancels the search export under way (it stops before the next episode).' },
} as const;
