// The reliability run (test/shared/env/property.test.ts, test/bench/property.bench.ts): `count`
// seeded random and malformed calls against pure episodes. Nothing may throw, budgets must count
// exactly, rejected calls must leave the scene untouched, and every scene must keep its invariant
// (bounds, scales, opacity, unit quaternions, unique ids). A broken rule throws (node:assert), so
// the suite and the benchmark share one body. Output: episodes played and tool outcomes seen.
import assert from 'node:assert/strict';
import { Random } from '../../../src/shared/math/random';
import { Episode } from '../../../src/shared/kinds/splatbench/episode';
import { type EpisodeConfig } from '../../../src/shared/kinds/splatbench/episode';
import { budgetFooter } from '../../../src/shared/kinds/splatbench/format';
import { sceneProblems, type GaussianRecord } from '../../../src/shared/scene/records';
import { TOOL_NAMES } from '../../../src/shared/kinds/splatbench/tools';
import { REFERENCE_VIEWS } from '../../../src/shared/camera/views';

const GROUPS = ['a', 'b', 'legs', 'top'];

function junk(rng: Random, depth = 0): unknown {
  const k = rng.int(depth > 2 ? 9 : 12);
  switch (k) {
    case 0: return rng.uniform(-3, 3);
    case 1: return [NaN, Infinity, -Infinity, -0, 1e308, -1e-320][rng.int(6)];
    case 2: return ['', 'abc', '#ff00', '#cacc cb', '[1,2,3]', '{"a":1}', '#GGGGGG', '0.5', 'null'][rng.int(9)];
    case 3: return null;
    case 4: return undefined;
    case 5: return rng.next() < 0.5;
    case 6: return rng.int(400) - 50;
    case 7: return rng.int(3) === 0 ? 1e9 : rng.int(64);
    case 8: return {};
    case 9: return Array.from({ length: rng.int(5) }, () => junk(rng, depth + 1));
    case 10: return Object.fromEntries(Array.from({ length: rng.int(4) }, () => [['pos', 'color', 'id', 'ids', 'group', 'scale', 'rot', 'x'][rng.int(8)], junk(rng, depth + 1)]));
    default: return Array.from({ length: 3 }, () => junk(rng, depth + 1));
  }
}

function maybe<T>(rng: Random, p: number, v: () => T, bad: () => unknown): T | unknown {
  return rng.next() < p ? v() : bad();
}

function vec(rng: Random, lo: number, hi: number): number[] {
  return [rng.uniform(lo, hi), rng.uniform(lo, hi), rng.uniform(lo, hi)];
}

function item(rng: Random, valid: number): Record<string, unknown> {
  const o: Record<string, unknown> = {
    pos: maybe(rng, valid, () => vec(rng, -1.3, 1.3), () => junk(rng)),
    color: maybe(rng, valid, () => (rng.next() < 0.5 ? `#${rng.int(0xffffff).toString(16).padStart(6, '0')}` : vec(rng, 0, 1)), () => junk(rng)),
  };
  if (rng.next() < 0.7) o.scale = maybe(rng, valid, () => (rng.next() < 0.5 ? rng.uniform(-0.1, 0.7) : vec(rng, 0, 0.7)), () => junk(rng));
  if (rng.next() < 0.4) o.rot = maybe(rng, valid, () => (rng.next() < 0.5 ? vec(rng, -360, 360) : [...vec(rng, -1, 1), rng.uniform(-1, 1)]), () => junk(rng));
  if (rng.next() < 0.4) o.opacity = maybe(rng, valid, () => rng.uniform(-0.2, 1.3), () => junk(rng));
  if (rng.next() < 0.6) o.group = maybe(rng, valid, () => GROUPS[rng.int(GROUPS.length)], () => junk(rng));
  if (rng.next() < 0.03) o.extra = 1;
  return o;
}

function someIds(rng: Random, ep: Episode): unknown {
  const recs = ep.records();
  const n = 1 + rng.int(6);
  return Array.from({ length: n }, () => (recs.length && rng.next() < 0.85 ? recs[rng.int(recs.length)].id : rng.int(ep.nextId + 5)));
}

function randomCall(rng: Random, ep: Episode): { tool: unknown; args?: unknown } {
  const r = rng.next();
  if (r < 0.03) return { tool: junk(rng), args: junk(rng) };
  if (r < 0.05) return { tool: 'add_gaussians', args: { gaussians: Array.from({ length: 2000 + rng.int(3000) }, () => ({ pos: [0, 0, 0], color: '#ffffff' })) } };
  const tool = TOOL_NAMES[rng.int(TOOL_NAMES.length)];
  const valid = rng.next() < 0.5 ? 1 : 0.9;
  const bad = rng.next() < 0.1;
  if (bad) return { tool, args: junk(rng) };
  let args: Record<string, unknown>;
  switch (tool) {
    case 'add_gaussians': args = { gaussians: Array.from({ length: 1 + rng.int(12) }, () => item(rng, valid)) }; break;
    case 'edit_gaussians': args = { gaussians: Array.from({ length: 1 + rng.int(4) }, () => ({ ...(rng.next() < 0.5 ? {} : item(rng, valid)), id: maybe(rng, valid, () => (someIds(rng, ep) as number[])[0], () => junk(rng)) })) }; break;
    case 'delete_gaussians': args = rng.next() < 0.5 ? { ids: someIds(rng, ep) } : { group: maybe(rng, valid, () => GROUPS[rng.int(4)], () => junk(rng)) }; break;
    case 'transform_group': args = {
      ...(rng.next() < 0.5 ? { group: GROUPS[rng.int(4)] } : { ids: someIds(rng, ep) }),
      ...(rng.next() < 0.6 ? { translate: maybe(rng, valid, () => vec(rng, -0.5, 0.5), () => junk(rng)) } : {}),
      ...(rng.next() < 0.5 ? { rotate_deg: maybe(rng, valid, () => (rng.next() < 0.5 ? rng.uniform(-180, 180) : vec(rng, -90, 90)), () => junk(rng)) } : {}),
      ...(rng.next() < 0.4 ? { scale: maybe(rng, valid, () => (rng.next() < 0.5 ? rng.uniform(0.3, 2) : vec(rng, 0.3, 2)), () => junk(rng)) } : {}),
    }; break;
    case 'list_gaussians': args = rng.next() < 0.5 ? {} : { group: GROUPS[rng.int(4)] }; break;
    case 'view_references':
    case 'render_views': args = rng.next() < 0.4 ? {} : { views: maybe(rng, valid, () => [rng.int(9), `V${rng.int(9)}`], () => junk(rng)), ...(rng.next() < 0.3 ? { groups: [GROUPS[rng.int(4)]] } : {}) }; break;
    case 'render_angle': args = { azimuth: maybe(rng, valid, () => rng.uniform(-400, 400), () => junk(rng)), elevation: maybe(rng, valid, () => rng.uniform(-100, 100), () => junk(rng)) }; break;
    default: args = rng.next() < 0.9 ? {} : { x: 1 };
  }
  if (rng.next() < 0.05) return { tool, args: JSON.stringify(args) };
  return { tool, args };
}

function fingerprint(recs: readonly GaussianRecord[]): string {
  let h = 0;
  for (const r of recs) {
    h = (h * 31 + r.id) % 1e9;
    for (const v of [...r.pos, ...r.scale, ...r.quat, ...r.color, r.opacity]) h = (h * 31 + Math.round(v * 1e9)) % 1e9;
  }
  return `${recs.length}:${h}:${recs.map((r) => r.group ?? '').join(',')}`;
}

export function propertyRun(count: number, seed = 20260514): { calls: number; episodes: number; seen: Set<string> } {
  const rng = new Random(seed);
  let calls = 0;
  let episodes = 0;
  const seen = new Set<string>();
  while (calls < count) {
    episodes += 1;
    const config: EpisodeConfig = {
      kind: 'sculpt',
      maxGaussians: 1 + rng.int(60),
      maxToolCalls: 1 + rng.int(80),
      maxRenders: rng.int(6),
      referenceViews: REFERENCE_VIEWS,
    };
    const ep = new Episode(config);
    const limit = config.maxToolCalls + 3;
    for (let k = 0; k < limit; k++) {
      const before = ep.budgets();
      const print = fingerprint(ep.records());
      const idBefore = ep.nextId;
      const wasDone = ep.done;
      const res = ep.step(randomCall(rng, ep));
      calls += 1;
      seen.add(res.ok ? `${res.tool}:ok` : `${res.tool}:err`);
      const after = ep.budgets();
      assert.strictEqual(res.footer, budgetFooter(after));
      if (wasDone) {
        assert.strictEqual(res.charged, false);
        assert.deepStrictEqual(after, before);
        assert.strictEqual(fingerprint(ep.records()), print);
        continue;
      }
      assert.strictEqual(after.callsLeft, before.callsLeft - 1);
      const rendered = res.ok && (res.image?.kind === 'views' || res.image?.kind === 'angle');
      assert.strictEqual(after.rendersLeft, before.rendersLeft - (rendered ? 1 : 0));
      assert.ok(after.rendersLeft >= 0);
      assert.ok(after.gaussians <= config.maxGaussians);
      if (!res.ok) {
        assert.strictEqual(res.body.startsWith('ERROR:'), true);
        assert.strictEqual(fingerprint(ep.records()), print);
        assert.strictEqual(ep.nextId, idBefore);
      }
      if (!res.changed) assert.strictEqual(fingerprint(ep.records()), print);
      assert.deepStrictEqual(sceneProblems(ep.records(), ep.nextId), []);
      assert.strictEqual(res.done, after.callsLeft === 0 || (res.ok && res.tool === 'submit'));
    }
    assert.strictEqual(ep.done, true);
  }
  return { calls, episodes, seen };
}
