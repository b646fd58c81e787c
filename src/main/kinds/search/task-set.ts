// Search task sets on disk (docs/DESIGN.md section 9): generate procedural rooms and their
// episodes into a tasks folder, check them for conformance, and score the baseline players.
// Inputs: a tasks folder, seeds, options. Outputs: room and task JSON files; reports as data.
// Invariant: generation is deterministic in its seeds; the check recomputes every claim of a task
// (start unanswerable, an answerable view within the budget by BFS, the answer exact) from the room;
// captured rooms take answerability from their annotation (./scene.ts).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mulberry32 } from '../../../shared/math/random';
import { capturedPlant } from '../../../shared/kinds/search/capture-like';
import { chanceOf, setChance } from '../../../shared/kinds/search/chance';
import { pathTo } from '../../../shared/kinds/search/astar';
import { writeSplatFile } from '../../formats/write';
import { encodePng } from '../../io/png-encode';
import { renderView } from '../../../shared/kinds/search/render';
import { join } from 'node:path';
import { SearchTaskSpecSchema, searchRules, type SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { answerText, checkAnswer } from '../../../shared/kinds/search/answers';
import { balanceAnswers, buildEpisodes, type SearchEpisode } from '../../../shared/kinds/search/build-tasks';
import { generateRoom } from '../../../shared/kinds/search/generate-room';
import { searchOutcome, type SearchOutcome } from '../../../shared/kinds/search/outcome';
import { blindPrior, playBaseline, type Baseline } from '../../../shared/kinds/search/players';
import { generateQuestions } from '../../../shared/kinds/search/questions';
import { motionWorld, searchAnswerable } from '../../../shared/kinds/search/world';
import { readSpec, taskIds } from '../../tasks/load';
import { loadTaskScene, type RoomScene } from './scene';
import type { LoadedCapture } from './capture-scene';
import { PROPS_DIR, ROOMS_DIR } from './rooms';
import { checkNoBuiltInFiles, taskFile } from '../../tasks/paths';

export interface GenerateOptions {
  rooms: number[];
  questions?: number;
  seed?: number;
  /** Largest share of its question family one answer may take (default 1/3). */
  share?: number;
  /** Episodes per question (default 1). */
  perQuestion?: number;
  /** Rooms whose seed is a multiple of this get the captured prop (0: none; default 3). */
  propEvery?: number;
  /** The captured prop: a splat file inside the tasks folder (default search/props/plant.ply, written when absent). */
  prop?: { file: string; category: string; color: string };
  /** Closed answer forms instead of E3VS's open ones (default false: open, judged). */
  closed?: boolean;
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
}

export const DEFAULT_PROP = { file: `${PROPS_DIR}/plant.ply`, category: 'plant', color: 'green' };

/** Scene-level splits: a seeded fifth of the rooms for test, a tenth for val, the rest train. */
export function splitRooms(rooms: readonly number[], seed: number): Map<number, 'train' | 'val' | 'test'> {
  const order = mulberry32(seed + 104_729).shuffle([...rooms]);
  const test = Math.max(rooms.length >= 3 ? 1 : 0, Math.round(rooms.length * 0.2));
  const val = Math.max(rooms.length >= 3 ? 1 : 0, Math.round(rooms.length * 0.1));
  return new Map(order.map((r, i) => [r, i < test ? 'test' : i < test + val ? 'val' : 'train']));
}

/**
 * Writes search/rooms/<room>.json and one <task_id>.json per episode; answers are balanced over the
 * whole set (no answer above a third of its question family). Returns the task ids.
 */
export async function generateTaskSet(dir: string, opts: GenerateOptions): Promise<string[]> {
  const prop = opts.prop ?? DEFAULT_PROP;
  const every = opts.propEvery ?? 3;
  const rooms = opts.rooms.map((seed) => ({ seed, room: generateRoom(seed, every > 0 && seed % every === 0 ? { prop } : {}) }));
  // The procedural rooms are the built-in set's: a lab home's layered folder refuses them before anything is written.
  checkNoBuiltInFiles(dir, rooms.map(({ room }) => `${ROOMS_DIR}/${room.name}.json`));
  mkdirSync(join(dir, ROOMS_DIR), { recursive: true });
  if (every > 0 && opts.rooms.some((r) => r % every === 0) && !existsSync(taskFile(dir, prop.file))) {
    if (prop.file !== DEFAULT_PROP.file) throw new Error(`search generate: no prop file ${prop.file} in ${dir}`);
    mkdirSync(join(dir, PROPS_DIR), { recursive: true });
    await writeSplatFile(join(dir, prop.file), capturedPlant(1), { format: 'ply', up: '+y' });
    opts.onProgress?.(`wrote the capture-like prop ${prop.file}`);
  }
  const splits = splitRooms(opts.rooms, opts.seed ?? 0);
  const all: { roomFile: string; e: SearchEpisode; split: 'train' | 'val' | 'test' }[] = [];
  for (const { seed, room } of rooms) {
    if (opts.signal?.aborted) throw new Error('search generate: cancelled');
    const roomFile = `${ROOMS_DIR}/${room.name}.json`;
    writeFileSync(join(dir, roomFile), `${JSON.stringify(room, null, 1)}\n`);
    const eps = buildEpisodes(room, { seed: (opts.seed ?? 0) * 1000 + seed, questions: opts.questions ?? 12, tries: 16, episodesPerQuestion: opts.perQuestion ?? 1, keep: 6, closed: opts.closed });
    all.push(...eps.map((e) => ({ roomFile, e, split: splits.get(seed)! })));
    opts.onProgress?.(`${room.name} (${splits.get(seed)}): ${eps.length} episodes`);
  }
  const kept = new Set(balanceAnswers(all.map((a) => a.e), opts.share ?? 1 / 3));
  const ids: string[] = [];
  for (const { roomFile, e, split } of all.filter((a) => kept.has(a.e))) {
    const task_id = `search__${e.id.replace(/\//g, '__')}`;
    const spec = SearchTaskSpecSchema.parse({
      task_id, kind: 'search', room: roomFile, question: e.question, start: e.start, goal: e.goal, answerable: e.answerable, distance: e.distance, split,
    });
    writeFileSync(join(dir, `${task_id}.json`), `${JSON.stringify(spec, null, 1)}\n`);
    ids.push(task_id);
  }
  return ids;
}

export function searchTaskIds(dir: string): string[] {
  return taskIds(dir).filter((id) => id.startsWith('search__'));
}

/** Every search task of a folder with its scene (each room or capture read once). */
export async function loadAll(dir: string, only?: readonly string[]): Promise<{ spec: SearchTaskSpec; scene: RoomScene }[]> {
  const cache = new Map<string, RoomScene | LoadedCapture>();
  const out: { spec: SearchTaskSpec; scene: RoomScene }[] = [];
  for (const id of searchTaskIds(dir).filter((t) => !only?.length || only.includes(t))) {
    const spec = readSpec(dir, id, SearchTaskSpecSchema);
    out.push({ spec, scene: await loadTaskScene(dir, spec, cache) });
  }
  return out;
}

export interface CheckReport {
  taskId: string;
  problems: string[];
  bfsSteps: number | null;
  /** Analytic chance of the task's question (./../../../shared/kinds/search/chance.ts). */
  chance: number;
}

/** The conformance check of one search task against its room. */
export function checkSearchTask(spec: SearchTaskSpec, scene: RoomScene): CheckReport {
  const problems: string[] = [];
  const q = spec.question;
  const vis = scene.visibility;
  const at = [spec.start.x, spec.start.y, spec.start.z] as const;
  if (scene.collider.sweepHits(at, at, spec.radius)) problems.push('the start viewpoint intersects the room geometry');
  if (vis.answerable(spec.start, q.needs)) problems.push('the start view already answers the question');
  if (scene.room && !spec.annotation) {
    // Open questions by default; a task made with `--closed` holds the closed form of the same id.
    const closed = q.answer.type !== 'text' || !generateQuestions(scene.room).some((g) => g.id === q.id && g.text === q.text);
    const truth = generateQuestions(scene.room, { closed }).find((g) => g.id === q.id);
    if (!truth) problems.push(`question ${q.id} is not generated by room ${scene.room.name}`);
    else if (JSON.stringify(truth.answer) !== JSON.stringify(q.answer) || truth.text !== q.text) problems.push(`question ${q.id}: the stored answer differs from the room's (${JSON.stringify(truth.answer.correct)})`);
  } else if (!scene.room && !spec.annotation) problems.push('a captured-room task names no annotation (its answer and answerable viewpoints come from one)');
  if (!checkAnswer(q.answer, answerText(q.answer))) problems.push('the answer checker refuses the correct answer');
  if (!spec.answerable.some((p) => vis.answerable(p, q.needs))) problems.push('no stored answerable viewpoint answers the question');
  const rules = searchRules(spec, scene.collider);
  const world = motionWorld(scene.collider, spec.radius, rules.config.motion);
  // A* to the stored goal when it answers (any start, no state cap), else the BFS to any answerable view.
  const direct = vis.answerable(spec.goal, q.needs) ? pathTo(world, spec.start, spec.goal, { maxDepth: spec.max_steps - 1 }) : null;
  const steps = direct?.length ?? searchAnswerable(world, spec.start, (p) => vis.answerable(p, q.needs), { maxDepth: spec.max_steps - 1, maxStates: 400_000, keep: 0 })?.path.length ?? null;
  if (steps === null) problems.push(`no answerable viewpoint within ${spec.max_steps - 1} actions of the start (A* to the goal, then BFS)`);
  return { taskId: spec.task_id, problems, bfsSteps: steps, chance: chanceOf(q) };
}

export interface SetReport {
  tasks: CheckReport[];
  rooms: number;
  /** Rooms and episodes per split ('none' for tasks without one). */
  splits: Record<string, { rooms: number; episodes: number }>;
  /** Set-level problems: a room whose tasks lie in more than one split. */
  problems: string[];
}

/** Scene-level split check and counts over a set's specs. */
export function splitReport(specs: readonly SearchTaskSpec[]): Pick<SetReport, 'rooms' | 'splits' | 'problems'> {
  const byRoom = new Map<string, Set<string>>();
  for (const s of specs) byRoom.set(s.room, (byRoom.get(s.room) ?? new Set()).add(s.split ?? 'none'));
  const problems = [...byRoom].filter(([, sp]) => sp.size > 1).map(([room, sp]) => `room ${room} has tasks in several splits (${[...sp].sort().join(', ')}): splits are by scene`);
  const splits: SetReport['splits'] = {};
  for (const s of specs) {
    const k = s.split ?? 'none';
    splits[k] = splits[k] ?? { rooms: 0, episodes: 0 };
    splits[k].episodes++;
  }
  for (const [, sp] of byRoom) for (const k of sp) if (splits[k]) splits[k].rooms++;
  return { rooms: byRoom.size, splits, problems };
}

export async function checkTaskSet(dir: string, onProgress?: (line: string) => void, only?: readonly string[]): Promise<SetReport> {
  const all = await loadAll(dir, only);
  const tasks = all.map(({ spec, scene }) => {
    const r = checkSearchTask(spec, scene);
    onProgress?.(`${r.taskId}: ${r.problems.length ? r.problems.join('; ') : `ok (${r.bfsSteps} steps to an answerable view; chance ${(100 * r.chance).toFixed(1)}%)`}`);
    return r;
  });
  return { tasks, ...splitReport(all.map((a) => a.spec)) };
}

export interface BaselineSummary {
  player: Baseline;
  episodes: number;
  /** Analytic chance of the set: mean share of each question's answer space the checker accepts. */
  chance: number;
  correct: number; // share
  success: number; // share
  steps: number; // mean
  pathLength: number; // mean metres
  collisionRate: number; // share of episodes with a collision
}

/**
 * One episode of a baseline player on the i-th task of a set, through the pure rules; the blind
 * prior is learnt from the other tasks of the set (leave one out). The CLI's scores and Results'
 * baseline rows both come from here.
 */
export function baselineEpisode(player: Baseline, set: readonly SearchTaskSpec[], i: number, scene: RoomScene, seed = 0): SearchOutcome {
  const spec = set[i];
  const prior = blindPrior(set.filter((_, j) => j !== i));
  const rules = searchRules(spec, scene.collider);
  for (const call of playBaseline(player, spec, scene.collider, scene.visibility, prior, seed * 7919 + i)) {
    if (rules.done) break;
    rules.step(call);
  }
  return searchOutcome(spec, scene.visibility, rules);
}

export async function runBaseline(dir: string, player: Baseline, seed = 0): Promise<{ summary: BaselineSummary & { specs: SearchTaskSpec[] }; outcomes: SearchOutcome[] }> {
  const all = await loadAll(dir);
  const specs = all.map((a) => a.spec);
  const outcomes = all.map(({ scene }, i) => baselineEpisode(player, specs, i, scene, seed));
  const n = Math.max(1, outcomes.length);
  const mean = (f: (o: SearchOutcome) => number) => outcomes.reduce((s, o) => s + f(o), 0) / n;
  return {
    outcomes,
    summary: {
      specs, player, episodes: outcomes.length, chance: setChance(specs.map((x) => x.question)), correct: mean((o) => +o.correct), success: mean((o) => +o.success), steps: mean((o) => o.steps),
      pathLength: mean((o) => o.path_length), collisionRate: mean((o) => o.collision),
    },
  };
}

/**
 * Renders the goal image of every task (or of the ids given) into outDir/<task_id>_goal.png: the
 * view from the goal viewpoint, the nearest answerable one found by BFS. Returns the paths.
 */
export async function writeGoalImages(dir: string, outDir: string, only?: readonly string[], onProgress?: (line: string) => void): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const out: string[] = [];
  for (const { spec, scene } of await loadAll(dir, only)) {
    const img = renderView(scene.splats, spec.goal);
    const path = join(outDir, `${spec.task_id}_goal.png`);
    writeFileSync(path, encodePng({ width: img.width, height: img.height, data: img.rgb }));
    onProgress?.(path);
    out.push(path);
  }
  return out;
}
