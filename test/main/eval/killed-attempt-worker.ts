// A child process for test/main/eval/killed-attempt-cost.test.ts: plays search task argv[3] of the
// tasks folder argv[2] into log argv[4] with a client that answers its first request (1000 input,
// 50 output tokens, one turn_left call) and never answers the second; it prints 'in-flight' when
// the second request is sent, so the test can kill the process with the request outstanding.
import { runEpisode } from '../../../src/main/eval/episode';
import { loadAnyTask } from '../../../src/main/kinds/registry';
import { registerLabKinds } from '../../../src/main/kinds/manifests';
import { EvalConfigSchema } from '../../../src/main/models/config';
import type { ModelClient, ModelTurn } from '../../../src/main/models/clients/types';
import { parseModelSpec } from '../../../src/main/models/spec';

// A child process of its own: the lab's kinds registered as every entry point does first.
registerLabKinds();

const [tasksDir, taskId, log] = process.argv.slice(2);
let sent = 0;
const client: ModelClient = {
  start: () => undefined,
  next: (): Promise<ModelTurn> => {
    sent += 1;
    if (sent === 1) return Promise.resolve({ calls: [{ id: 'c1', name: 'turn_left', args: {} }], text: '', inputTokens: 1000, outputTokens: 50, model: null, retries: 0 });
    process.stdout.write('in-flight\n');
    return new Promise<ModelTurn>(() => undefined);
  },
  results: () => undefined,
  say: () => undefined,
};
const task = await loadAnyTask(taskId, { tasksDir });
await runEpisode({ jobId: 'j1', task, run: 1, spec: parseModelSpec('scripted:basic'), log }, { grader: undefined as never, config: EvalConfigSchema.parse({}), client: () => client });
