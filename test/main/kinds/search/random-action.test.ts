// Issue 35: E3VS's Random Action as the paper runs it, over every committed search episode:
// uniform random motions for the episode's budget, then an answering model (a scripted model
// behind a Chat Completions wire server, through the lab's model runner) answers from the final
// view alone, and the E3VS judge (a second wire server, through judgeOne: the pinned prompt, the
// ground truth, the end and goal images) marks it. The committed questions are open, so the exact
// checker scores none of them (it stays for closed families, made with --closed). Views come from a stand-in renderer (a 2x2 image coding the camera's
// pose) to keep the test lean: the views are tested elsewhere, the protocol here (which pose's
// view goes to whom). Over every committed start: the question's objects lie inside the start
// view's frustum (occluded or not) in at least 90 % (E3VS's starts face the object), and no
// start view (rendered at 16 px) is more than 90 % one colour, and every start lies on one of the
// spheres around the objects (the first where their box spans 3/5 of the image, growing by 1.5 a
// ring). No committed question needs a compass word the room does not show.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalConfigSchema } from '../../../../src/main/models/config';
import { makeClient, parseModelSpec } from '../../../../src/main/models/spec';
import { loadAll } from '../../../../src/main/kinds/search/task-set';
import { randomMotions, runRandomAction, type RandomActionSummary } from '../../../../src/main/kinds/search/random-action';
import { searchRules } from '../../../../src/shared/kinds/search/kind';
import { poseCamera } from '../../../../src/shared/kinds/search/pose';
import { findNode, nodeAabb } from '../../../../src/shared/kinds/search/room';
import { renderViewAsync, type AsyncViewRenderer } from '../../../../src/shared/kinds/search/render';
import { encodePng } from '../../../../src/main/io/png-encode';
import { JUDGE_EXAMPLES } from '../../../../src/shared/kinds/search/judge-prompt';
import { startWireServer } from '../../eval/wire-server';
import type { RoomScene } from '../../../../src/main/kinds/search/scene';
import type { SearchTaskSpec } from '../../../../src/shared/kinds/search/kind';

const dir = join(process.cwd(), 'tasks');
/** Side of the rendered start views whose colours are counted. */
const SHARE_SIZE = 16;

/** Share of pixels within 0.08 (each channel) of the most common colour (bins of 1/8). */
function colourShare(rgb: Float32Array): number {
  const n = rgb.length / 3;
  const bins = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const key = [0, 1, 2].reduce((k, c) => k * 8 + Math.min(7, Math.floor(rgb[i * 3 + c] * 8)), 0);
    bins.set(key, [...(bins.get(key) ?? []), i]);
  }
  const mode = [...bins.values()].sort((a, b) => b.length - a.length)[0];
  const mean = [0, 1, 2].map((c) => mode.reduce((s, i) => s + rgb[i * 3 + c], 0) / mode.length);
  let near = 0;
  for (let i = 0; i < n; i++) if ([0, 1, 2].every((c) => Math.abs(rgb[i * 3 + c] - mean[c]) <= 0.08)) near++;
  return near / n;
}
const SIZE = 2;
/** A 2x2 image coding the camera's extrinsics: different poses, different images. */
const poseImage: AsyncViewRenderer = (_splats, camera) => {
  const m = camera.world_to_camera;
  const rgb = new Float32Array(12);
  for (let k = 0; k < 12; k++) rgb[k] = (((m[k] * 7.31) % 1) + 1) % 1;
  return { width: 2, height: 2, rgb, alpha: new Float32Array(4).fill(1) };
};

type Part = { type: string; text?: string; image_url?: { url: string } };
type Body = { messages: { role: string; content: string | Part[] }[] };
const userParts = (body: unknown): Part[] => {
  const user = (body as Body).messages.find((m) => m.role === 'user')!;
  return typeof user.content === 'string' ? [{ type: 'text', text: user.content }] : user.content;
};
const images = (parts: Part[]) => parts.filter((p) => p.type === 'image_url').map((p) => Buffer.from(p.image_url!.url.replace(/^data:image\/png;base64,/, ''), 'base64'));

describe('Random Action as E3VS runs it, over the committed search set', () => {
  let all: { spec: SearchTaskSpec; scene: RoomScene }[];
  let summary: RandomActionSummary;
  let answerer: Awaited<ReturnType<typeof startWireServer>>, judge: Awaited<ReturnType<typeof startWireServer>>;

  beforeAll(async () => {
    all = await loadAll(dir);
    // The answering model always says "red"; the judge marks every answer 1.
    answerer = await startWireServer('chat', all.map(() => [{ name: 'stop', args: { answer: 'red' } }]));
    judge = await startWireServer('chat', [], 'The response does not match.\nYour mark: 1');
    const config = EvalConfigSchema.parse({ providers: { openai: { base_url: `${answerer.url}/v1`, api_key_env: 'WIRE_KEY' } }, retry: { max: 3, base_ms: 1 } });
    const answerSpec = parseModelSpec('openai-chat:answer-model', null);
    const judgeConfig = EvalConfigSchema.parse({ providers: { openai: { base_url: `${judge.url}/v1`, api_key_env: 'WIRE_KEY' } }, retry: { max: 3, base_ms: 1 } });
    summary = await runRandomAction(all, () => makeClient(answerSpec, config, { WIRE_KEY: 'sk-test' }), () => makeClient(parseModelSpec('openai-chat:judge-model', null), judgeConfig, { WIRE_KEY: 'sk-test' }), { judge: 'openai-chat:judge-model', size: SIZE, seed: 3, renderer: poseImage });
  }, 600_000);
  afterAll(async () => {
    await answerer?.close();
    await judge?.close();
  });

  it('moves at random for each episode\'s budget, answers from the final view, and judges every answer', () => {
    expect(all.length).toBeGreaterThanOrEqual(500);
    expect(summary.episodes).toBe(all.length);
    expect(summary.judged).toBe(all.length);
    expect(summary.unparseable).toBe(0);
    // Every answer marked 1: judge accuracy 0, whatever the exact checker says of "red".
    expect(summary.judgeAccuracy).toBe(0);
    expect(summary.rows.every((r) => r.mark === 1 && r.judge_score === 0 && r.scored_by === 'judge' && r.answer === 'red')).toBe(true);
    // The committed questions are open (E3VS's default): no closed answer, so no exact accuracy beside the judge's.
    expect(all.filter((a) => a.spec.question.answer.type !== 'text')).toEqual([]);
    expect(summary.closed).toBe(0);
    expect(summary.exactAccuracy).toBeNull();
    // Steps: the whole budget less the answer; collisions replayed through the rules.
    expect(summary.rows.every((r, i) => r.steps === all[i].spec.max_steps - 1)).toBe(true);
    let collided = 0;
    all.forEach(({ spec, scene }, i) => {
      const rules = searchRules(spec, scene.collider);
      for (const tool of randomMotions(spec, 3 * 7919 + i)) rules.step({ tool });
      if (rules.collisions() > 0) collided++;
      expect(summary.rows[i].collisions).toBe(rules.collisions());
    });
    expect(summary.collisionRate).toBeCloseTo(collided / all.length, 9);
    expect(summary.collisionRate).toBeGreaterThan(0);
  });

  it('the answering model gets the question and the final view only; the judge gets the pinned prompt, truth, end and goal views', async () => {
    // Served requests (the scripted servers refuse their first and third request once).
    const asked = answerer.requests.filter((_, k) => k !== 0 && k !== 2);
    const judged = judge.requests.filter((_, k) => k !== 0 && k !== 2);
    expect(asked).toHaveLength(all.length);
    expect(judged).toHaveLength(all.length);
    const i = 7;
    const { spec, scene } = all[i];
    const rules = searchRules(spec, scene.collider);
    for (const tool of randomMotions(spec, 3 * 7919 + i)) rules.step({ tool });
    const view = async (pose: SearchTaskSpec['start']) => {
      const img = await renderViewAsync(scene.splats, pose, poseImage, SIZE);
      return Buffer.from(encodePng({ width: img.width, height: img.height, data: img.rgb }));
    };
    const end = await view(rules.currentPose()), goal = await view(spec.goal);
    const a = userParts(asked[i].body);
    expect(images(a)).toHaveLength(1);
    expect(images(a)[0].equals(end)).toBe(true);
    expect(a.map((p) => p.text ?? '').join('\n')).toContain(spec.question.text);
    const j = userParts(judged[i].body);
    const text = j.map((p) => p.text ?? '').join('\n');
    for (const e of JUDGE_EXAMPLES) expect(text).toContain(`Question: ${e.question}\nAnswer: ${e.answer}`);
    expect(text).toContain(`Question: ${spec.question.text}\n`);
    expect(text).toContain('Response: red\nYour mark:');
    const [jEnd, jGoal] = images(j);
    expect(jEnd.equals(end)).toBe(true);
    expect(jGoal.equals(goal)).toBe(true);
  });

  it('every start is made as E3VS makes them: the question\'s objects inside the start view, never a view of one colour', async () => {
    let inside = 0;
    const shares: { id: string; share: number }[] = [];
    for (const { spec, scene } of all) {
      const cam = poseCamera(spec.start, SHARE_SIZE);
      const m = cam.world_to_camera;
      const seen = spec.question.needs.every((id) => {
        const b = nodeAabb(findNode(scene.room!, id));
        const p = [0, 1, 2].map((k) => (b.min[k] + b.max[k]) / 2);
        const z = m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
        if (z <= 0) return false;
        const u = (cam.fx * (m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3])) / z + cam.cx;
        const v = (cam.fy * (m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7])) / z + cam.cy;
        return u >= 0 && u <= cam.width && v >= 0 && v <= cam.height;
      });
      if (seen) inside++;
      const img = await renderViewAsync(scene.splats, spec.start, undefined, SHARE_SIZE);
      shares.push({ id: spec.task_id, share: colourShare(img.rgb) });
    }
    expect(inside / all.length).toBeGreaterThanOrEqual(0.9);
    expect(shares.filter((s) => s.share > 0.9), JSON.stringify(shares.filter((s) => s.share > 0.85))).toEqual([]);
    // The measure sees a blank view: a start turned to face the nearest wall up close is one colour.
    const { spec, scene } = all[0];
    const wall = await renderViewAsync(scene.splats, { x: 0.3, y: scene.room!.size[1] / 2, z: 1.2, yaw: 180, pitch: 0 }, undefined, SHARE_SIZE);
    expect(colourShare(wall.rgb)).toBeGreaterThan(0.9);
    expect(spec.start).toBeDefined();
  }, 300_000);

  it('every start lies on one of E3VS\'s spheres around the question\'s objects: radius where their box spans 3/5 of the image, growing by 1.5 a ring', () => {
    const rings: number[] = [];
    for (const { spec, scene } of all) {
      const boxes = spec.question.needs.map((id) => nodeAabb(findNode(scene.room!, id)));
      const lo = [0, 1, 2].map((k) => Math.min(...boxes.map((b) => b.min[k]))), hi = [0, 1, 2].map((k) => Math.max(...boxes.map((b) => b.max[k])));
      const c = [0, 1, 2].map((k) => boxes.reduce((s, b) => s + (b.min[k] + b.max[k]) / 2, 0) / boxes.length);
      // At 90 degrees the image spans 2d at distance d: the box spans 3/5 of it at extent / 1.2;
      // never nearer than twice the camera's collision radius.
      const r0 = Math.max(2 * spec.radius, Math.max(...[0, 1, 2].map((k) => hi[k] - lo[k])) / 1.2);
      const d = Math.hypot(spec.start.x - c[0], spec.start.y - c[1], spec.start.z - c[2]);
      // Positions are rounded to 1 cm: within sqrt(3) * 0.005 m of a sphere.
      const k = [...Array(12).keys()].find((j) => Math.abs(d - Math.min(3.2, r0 * 1.5 ** j)) <= 0.009);
      expect(k, `${spec.task_id}: ${d.toFixed(3)} m from its objects, first sphere ${r0.toFixed(3)} m`).toBeDefined();
      rings.push(k!);
    }
    // Not one ring only: the radius grows until a view does not answer.
    expect(new Set(rings).size).toBeGreaterThan(2);
  });

  it('no committed question names a compass direction (nothing in a room shows one)', () => {
    const compass = all.filter((a) => /\b(north|south|east|west)\b/i.test(a.spec.question.text));
    expect(compass.map((a) => a.spec.task_id)).toEqual([]);
    expect(all.filter((a) => a.spec.question.family === 'sign').length).toBeGreaterThan(20);
  });
});
