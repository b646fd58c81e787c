// The E3VS judge through a real model runner against a scripted wire server: the request carries
// the pinned few-shot prompt and both images (the end view and the goal view), the mark 5 is
// stored with the prompt's hash and the two images' hashes; judge-rater agreement is Spearman's rho.
import { afterEach, describe, expect, it } from 'vitest';
import { EvalConfigSchema } from '../../../../src/main/models/config';
import { makeClient, parseModelSpec } from '../../../../src/main/models/spec';
import { judgeAgreement, judgeLogs, JUDGE_HASH, type JudgeLog } from '../../../../src/main/kinds/search/judge';
import { judgeImages } from '../../../../src/main/kinds/search/judge-images';
import { appendRating, readJudgements } from '../../../../src/main/kinds/search/judge-store';
import { readSpec } from '../../../../src/main/tasks/load';
import { SearchTaskSpecSchema } from '../../../../src/shared/kinds/search/kind';
import { spearman } from '../../../../src/shared/kinds/search/agreement';
import { bytesHash, JUDGE_EXAMPLES } from '../../../../src/shared/kinds/search/judge-prompt';
import { startWireServer } from '../../eval/wire-server';
import { facing, playLog, searchTasksDir } from './study-fixture';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('E3VS judge over the wire', () => {
  it('sends the few-shot prompt with the end and goal images and stores the mark with its hashes', async () => {
    const tasksDir = searchTasksDir();
    const path = join(mkdtempSync(join(tmpdir(), 'splatlab-judge-')), 'run.jsonl');
    // Facing the cube, one step back, then stop: the end view is not the goal view.
    const calls = facing('a tomato-ish colour');
    await playLog(tasksDir, 'search__t1', path, [...calls.slice(0, -1), { tool: 'move_back' }, calls[calls.length - 1]]);
    const log: JudgeLog = { path, rel: 'run.jsonl', spec: readSpec(tasksDir, 'search__t1', SearchTaskSpecSchema) };
    const server = await startWireServer('chat', [], 'The colour matches.\nYour mark: 5');
    stop = server.close;
    const config = EvalConfigSchema.parse({ providers: { openai: { base_url: `${server.url}/v1`, api_key_env: 'WIRE_KEY' } }, retry: { max: 3, base_ms: 1 } });
    const spec = parseModelSpec('openai-chat:wire-model', null);
    const images = judgeImages(tasksDir);
    const run = await judgeLogs([log], () => makeClient(spec, config, { WIRE_KEY: 'sk-test' }), 'openai-chat:wire-model', { images });
    expect(run).toEqual({ judged: 1, unparseable: 0, skipped: 0 });
    // The last request is the one answered (the server refuses the first and the third).
    const body = server.requests[server.requests.length - 1].body as { messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[] };
    const user = body.messages.find((m) => m.role === 'user')!;
    const parts = user.content as { type: string; text?: string; image_url?: { url: string } }[];
    const text = parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n');
    const pics = parts.filter((p) => p.type === 'image_url').map((p) => Buffer.from(p.image_url!.url.replace(/^data:image\/png;base64,/, ''), 'base64'));
    expect(pics).toHaveLength(2);
    for (const e of JUDGE_EXAMPLES) expect(text).toContain(`Question: ${e.question}\nAnswer: ${e.answer}\nResponse: ${e.response}\nYour mark: ${e.mark}`);
    expect(text).toMatch(/Question: What colour is the cube\?\nAnswer: red \(also correct: scarlet\)\nResponse: a tomato-ish colour\nYour mark:$/);
    expect(text).toMatch(/FIRST is the view the agent stopped at[\s\S]*SECOND is a view from which/);
    const expected = await images(log);
    expect(pics[0].equals(Buffer.from(expected!.end))).toBe(true);
    expect(pics[1].equals(Buffer.from(expected!.goal))).toBe(true);
    expect(pics[0].equals(pics[1])).toBe(false);
    const [rec] = readJudgements(path);
    expect(rec).toMatchObject({ mark: 5, score: 100, prompt_hash: JUDGE_HASH, end_image_hash: bytesHash(expected!.end), goal_image_hash: bytesHash(expected!.goal), model: 'wire-model-2026-01-01' });
    // One rated answer is too few for a correlation.
    appendRating(path, { rater: 'r1', mark: 5, score: 100, at: new Date().toISOString() });
    expect(judgeAgreement([log], 'openai-chat:wire-model')).toEqual({ pairs: 1, rho: null });
  }, 120_000);

  it('Spearman rho with tied ranks', () => {
    expect(spearman([5, 1, 5, 1], [5, 1, 5, 1])).toBeCloseTo(1);
    expect(spearman([5, 1, 5, 1], [1, 5, 1, 5])).toBeCloseTo(-1);
    // Ranks of [1, 2, 2, 3] are [1, 2.5, 2.5, 4]; against [1, 2, 3, 4] rho = 0.9487.
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(0.9487, 4);
    expect(spearman([5, 5], [1, 5])).toBeNull();
  });
});
