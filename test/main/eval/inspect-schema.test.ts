// `splatlab export inspect` against Inspect's published log schema: the EvalLog of inspect_ai's
// OpenAPI document (src/inspect_ai/_view/inspect-openapi.json at UKGovernmentBEIS/inspect_ai
// 499e6152e7b8fc8cbd8ac5283536572aa6e4ab17, 2026-08-22, MIT licence; copied beside this test as
// inspect-openapi.json), validated with ajv (JSON Schema 2020-12, which OpenAPI 3.1 uses). Scripted
// runs of one task at two efforts, two runs each: one log per generate config, each (sample id,
// epoch) once per log, epochs in eval.config, the effort in model_generate_config, one tool event
// per call, working time, mean and stderr metrics; and a run's images (the first observation,
// render_views, view_references) as ContentImage in its messages, stored once as attachments.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { EvalConfigSchema } from '../../../src/main/models/config';
import { runEpisode } from '../../../src/main/eval/episode';
import { exportInspect, trajectoryFiles } from '../../../src/main/eval/inspect-export';
import { makeClient, parseModelSpec } from '../../../src/main/models/spec';
import type { ModelClient } from '../../../src/main/models/clients/types';
import { testTask, testTasks, tmpLog } from '../env/fixtures';

const openapi = JSON.parse(readFileSync(join(__dirname, 'inspect-openapi.json'), 'utf8')) as Record<string, unknown>;

interface Log {
  eval: { model_generate_config: Record<string, unknown>; config: { epochs?: number } };
  results: { scores: { metrics: Record<string, { value: number }> }[] };
  samples: { id: string; epoch: number; events: { event: string; function: string }[]; messages: { tool_calls?: unknown[] }[]; working_time: number | null }[];
}

describe('Inspect export against the published log schema', () => {
  it('writes EvalLogs the schema accepts: one per generate config, epochs, events, working time, mean and stderr', async () => {
    const { tasksDir, grader } = await testTasks();
    const dir = tmpLog('x').replace(/x$/, 'efforts');
    mkdirSync(dir, { recursive: true });
    const task = await testTask('test__sculpt');
    const config = EvalConfigSchema.parse({ caps: { max_messages: 4 } });
    for (const effort of ['low', 'high'] as const) {
      const spec = { ...parseModelSpec(`scripted:random@${effort}`), seed: 3 };
      for (const run of [1, 2]) {
        const log = join(dir, effort, `test__sculpt__r${run}.jsonl`);
        mkdirSync(join(dir, effort), { recursive: true });
        const out = await runEpisode({ jobId: `${effort}${run}`, task, run, spec, log }, { grader, config, client: () => makeClient(spec, config, {}, run) });
        expect(out).toBeDefined();
      }
    }
    const out = await exportInspect(trajectoryFiles(dir), { tasksDir, grader: async () => grader, version: '0.0.0-test' });
    expect(out.problems).toEqual([]);
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ ...openapi, $id: 'inspect-openapi' });
    const validate = ajv.compile({ $ref: 'inspect-openapi#/components/schemas/EvalLog' });
    for (const { log } of out.logs) {
      const ok = validate(log);
      expect(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 1)).toBe(true);
    }
    const logs = out.logs.map((l) => l.log as unknown as Log);
    expect(logs.map((l) => l.eval.model_generate_config.reasoning_effort).sort()).toEqual(['high', 'low']);
    for (const log of logs) {
      const pairs = log.samples.map((s) => `${s.id}#${s.epoch}`);
      expect(new Set(pairs).size).toBe(pairs.length);
      expect(log.eval.config.epochs).toBe(2);
      expect(Object.keys(log.results.scores[0].metrics).sort()).toEqual(['mean', 'stderr']);
      for (const s of log.samples) {
        const calls = s.messages.filter((m) => m.tool_calls?.length).length;
        expect(s.events.filter((e) => e.event === 'tool')).toHaveLength(calls);
        expect(typeof s.working_time).toBe('number');
      }
    }
    // Images ride in the messages (replayed from the logged calls): the first observation's
    // reference sheet and render_views' sheet as ContentImage, each stored once as an attachment.
    const imgDir = join(dir, 'images');
    mkdirSync(imgDir, { recursive: true });
    const turns = [[{ id: 'a', name: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#c8413a', scale: 0.3 }] } }], [{ id: 'r', name: 'render_views', args: { views: [0] } }], [{ id: 'v', name: 'view_references', args: {} }], [{ id: 's', name: 'submit', args: {} }]];
    const client: ModelClient = { start: () => undefined, next: () => Promise.resolve({ calls: turns.shift() ?? [], text: '', inputTokens: 0, outputTokens: 0, model: null, retries: 0 }), results: () => undefined, say: () => undefined };
    await runEpisode({ jobId: 'img1', task, run: 1, spec: parseModelSpec('scripted:basic'), log: join(imgDir, 'test__sculpt__r1.jsonl') }, { grader, config: EvalConfigSchema.parse({}), client: () => client });
    const withImages = await exportInspect(trajectoryFiles(imgDir), { tasksDir, grader: async () => grader, version: '0.0.0-test' });
    expect(withImages.problems).toEqual([]);
    const imgLog = withImages.logs[0].log as unknown as { samples: { attachments: Record<string, string>; messages: { role: string; function?: string; content: unknown }[] }[] };
    expect(validate(imgLog), JSON.stringify(validate.errors?.slice(0, 5), null, 1)).toBe(true);
    const sample0 = imgLog.samples[0];
    const imageOf = (m: { content: unknown }): string | undefined => (Array.isArray(m.content) ? (m.content as { type: string; image?: string }[]).find((c) => c.type === 'image')?.image : undefined);
    const shown = sample0.messages.filter((m) => imageOf(m) !== undefined).map((m) => m.function ?? m.role);
    expect(shown).toEqual(['user', 'render_views', 'view_references']);
    for (const m of sample0.messages.filter((x) => imageOf(x))) {
      const ref = imageOf(m)?.replace(/^attachment:\/\//, '') ?? '';
      expect(sample0.attachments[ref]).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    }
    // The reference sheet of the first observation and of view_references is one attachment.
    expect(Object.keys(sample0.attachments)).toHaveLength(2);
    expect(validate({ ...imgLog, samples: [{ ...sample0, messages: sample0.messages.map((m) => (m.function === 'render_views' ? { ...m, content: [{ type: 'image' }] } : m)) }] })).toBe(false);
    // The schema is not a formality: a log without its eval spec is refused.
    expect(validate({ ...(out.logs[0].log as Record<string, unknown>), eval: undefined })).toBe(false);
    const first = out.logs[0].log as unknown as Log;
    expect(validate({ ...first, samples: [{ ...first.samples[0], events: [{ event: 'tool' }] }] })).toBe(false);
  }, 180_000);
});
