// Annotation documents on disk (docs/DESIGN.md section 9): tasks/search/annotations/<id>.json,
// written by the first annotator, completed by the verifier (second annotator's answer, marks,
// times, and the agreement), and exported as a search task once the annotators agree.
// Inputs: the tasks folder and the annotators' parts. Outputs: documents, list rows, task ids.
// Invariant: a verified document is never overwritten by a first annotator; only a document whose
// recomputed agreement says `agreed` exports, and the exported task passes the conformance check
// (start unanswerable by the annotation, an answerable viewpoint within the budget by BFS).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SearchTaskSpecSchema, type SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { MarkedAnswerability } from '../../../shared/kinds/search/answerability';
import { agreedAnswerable, agreementOf, AnnotationSchema, type Agreement, type Annotation, type Mark } from '../../../shared/kinds/search/annotation';
import { DEFAULT_MOTION } from '../../../shared/kinds/search/pose';
import { motionWorld } from '../../../shared/kinds/search/world';
import { pathNear } from '../../../shared/kinds/search/astar';
import { readJsonChecked } from '../../io/json-file';
import { checkSearchTask, type CheckReport } from './task-set';
import { loadRoomDoc } from './rooms';
import { checkNotBuiltIn } from '../../tasks/paths';

export const ANNOTATIONS_DIR = 'search/annotations';

export class AnnotationError extends Error {}

function docPath(tasksDir: string, id: string): string {
  return join(tasksDir, ANNOTATIONS_DIR, `${AnnotationSchema.shape.id.parse(id)}.json`);
}

export function readAnnotation(tasksDir: string, id: string): Annotation {
  const path = docPath(tasksDir, id);
  if (!existsSync(path)) throw new AnnotationError(`no annotation '${id}' in ${join(tasksDir, ANNOTATIONS_DIR)}`);
  return readJsonChecked(path, AnnotationSchema, { what: 'annotation', error: AnnotationError });
}

function write(tasksDir: string, doc: Annotation): void {
  mkdirSync(join(tasksDir, ANNOTATIONS_DIR), { recursive: true });
  writeFileSync(docPath(tasksDir, doc.id), `${JSON.stringify(AnnotationSchema.parse(doc), null, 1)}\n`);
}

export function annotationIds(tasksDir: string): string[] {
  const dir = join(tasksDir, ANNOTATIONS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}

/** The first annotator's document (no second part): new, or replacing an unverified one. */
export function saveFirst(tasksDir: string, doc: Omit<Annotation, 'second' | 'agreement'>): Annotation {
  const parsed = AnnotationSchema.parse(doc);
  if (existsSync(docPath(tasksDir, parsed.id)) && readAnnotation(tasksDir, parsed.id).second) {
    throw new AnnotationError(`annotation '${parsed.id}' is already verified: choose another id`);
  }
  const { second: _s, agreement: _a, ...first } = parsed;
  write(tasksDir, first);
  return first;
}

export interface SecondPart {
  annotator: string;
  started: string;
  finished: string;
  answer: string;
  marks: Mark[];
}

/** Records the verifier's part and the agreement; the verifier must be another person. */
export function verify(tasksDir: string, id: string, second: SecondPart): { doc: Annotation; agreement: Agreement } {
  const doc = readAnnotation(tasksDir, id);
  if (doc.second) throw new AnnotationError(`annotation '${id}' was already verified by ${doc.second.annotator}`);
  if (second.annotator === doc.first.annotator) throw new AnnotationError(`the verifier must be a second annotator (not ${doc.first.annotator})`);
  const withSecond: Annotation = { ...doc, second };
  const agreement = agreementOf(withSecond);
  const out = { ...withSecond, agreement };
  write(tasksDir, out);
  return { doc: out, agreement };
}

export function exportTaskId(doc: Annotation): string {
  const room = doc.room.replace(/^.*\//, '').replace(/\.json$/, '');
  return `search__${room}__${doc.id}`;
}

/** The search task of an agreed annotation (goal and distance by A* to the annotation's agreed viewpoints). */
export async function annotationTask(tasksDir: string, doc: Annotation, maxSteps = 25): Promise<SearchTaskSpec> {
  if (!doc.second || !doc.agreement) throw new AnnotationError(`annotation '${doc.id}' is not verified yet: a second annotator must verify it`);
  const agreement = agreementOf(doc, doc.agreement.at);
  if (!agreement.agreed) throw new AnnotationError(`annotation '${doc.id}': the annotators did not agree (answer ${agreement.answer ? 'agrees' : 'differs'}, ${agreement.agreeing}/${agreement.shared} shared marks, ${agreement.answerable} both answerable)`);
  const answerable = agreedAnswerable(doc);
  const room = await loadRoomDoc(tasksDir, doc.room);
  const radius = room.radius;
  const vis = new MarkedAnswerability(answerable, doc.tolerance);
  // A* to the nearest pose within the tolerance of an agreed viewpoint: any start, no state cap.
  const found = pathNear(motionWorld(room.collider, radius, DEFAULT_MOTION), doc.start, answerable, doc.tolerance, { maxDepth: maxSteps - 1 });
  if (!found || !vis.answerable(found.goal)) throw new AnnotationError(`annotation '${doc.id}': no agreed answerable viewpoint is reachable within ${maxSteps - 1} actions of the start`);
  return SearchTaskSpecSchema.parse({
    task_id: exportTaskId(doc), kind: 'search', room: doc.room,
    question: { id: doc.id, family: doc.question.family, text: doc.question.text, answer: doc.answer, needs: doc.question.needs },
    start: doc.start, goal: found.goal, answerable, distance: found.path.length, max_steps: maxSteps, radius,
    tolerance: doc.tolerance, annotation: doc.id,
  });
}

/** Writes the task of an agreed annotation into the tasks folder and checks it. */
export async function exportAnnotation(tasksDir: string, id: string): Promise<{ taskId: string; report: CheckReport }> {
  const spec = await annotationTask(tasksDir, readAnnotation(tasksDir, id));
  const room = await loadRoomDoc(tasksDir, spec.room);
  const report = checkSearchTask(spec, room.sceneFor(spec));
  if (report.problems.length) throw new AnnotationError(`annotation '${id}' does not make a conforming task: ${report.problems.join('; ')}`);
  checkNotBuiltIn(tasksDir, [spec.task_id]);
  writeFileSync(join(tasksDir, `${spec.task_id}.json`), `${JSON.stringify(spec, null, 1)}\n`);
  return { taskId: spec.task_id, report };
}
