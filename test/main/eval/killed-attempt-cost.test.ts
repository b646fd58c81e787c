// A killed attempt's cost is counted (issue 37 item 4): a worker killed (SIGKILL) while its second
// model request is in flight leaves a meta that counts the first answer's tokens and the request
// sent; the attempt that resumes the log counts the lost request (billed by the provider, its
// input tokens estimated as the last answered request's) in the tokens and the cost.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/main/eval/episode';
import { loadAnyTask } from '../../../src/main/kinds/registry';
import { EvalConfigSchema } from '../../../src/main/models/config';
import type { ModelClient, ModelTurn } from '../../../src/main/models/clients/types';
import { parseModelSpec } from '../../../src/main/models/spec';
import { EpisodeMetaSchema } from '../../../src/main/models/meta';
import { searchTasksDir } from '../kinds/search/study-fixture';
import { childArgs, childEnv } from '../../helpers/child-entry';

const CHILD = join(__dirname, 'killed-attempt-worker.ts');

describe('a killed attempt', () => {
  it('leaves its tokens and its in-flight request in the meta, and the resumed run bills them', async () => {
    const tasksDir = searchTasksDir();
    const log = join(mkdtempSync(join(tmpdir(), 'splatlab-killed-')), 'search__t2__r1.jsonl');
    const child = spawn(process.execPath, [...childArgs(CHILD), tasksDir, 'search__t2', log], { stdio: ['ignore', 'pipe', 'inherit'], env: childEnv() });
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (l) => l === 'in-flight' && resolve());
      child.once('exit', (code) => reject(new Error(`the worker exited with ${code} before its second request`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const killed = EpisodeMetaSchema.parse(JSON.parse(readFileSync(log.replace(/\.jsonl$/, '.meta.json'), 'utf8')));
    expect(killed).toMatchObject({ status: 'running', turns: 1, requests: 2, input_tokens: 1000, output_tokens: 50, attempts: 1 });

    const answer: ModelClient = {
      start: () => undefined,
      next: (): Promise<ModelTurn> => Promise.resolve({ calls: [{ id: 'c2', name: 'stop', args: { answer: 'yes' } }], text: '', inputTokens: 1200, outputTokens: 20, model: null, retries: 0 }),
      results: () => undefined,
      say: () => undefined,
    };
    const config = EvalConfigSchema.parse({ prices: { basic: { input_per_mtok: 1, output_per_mtok: 10 } } });
    const task = await loadAnyTask('search__t2', { tasksDir });
    const meta = await runEpisode({ jobId: 'j1', task, run: 1, spec: parseModelSpec('scripted:basic'), log }, { grader: undefined as never, config, client: () => answer });
    expect(meta).toMatchObject({ status: 'done', attempts: 2, turns: 2, requests: 3, lost_requests: 1, lost_input_tokens: 1000, input_tokens: 2200, output_tokens: 70 });
    expect(meta.cost_usd).toBeCloseTo(((2200 + 1000) * 1 + 70 * 10) / 1e6, 12);
  });
});
