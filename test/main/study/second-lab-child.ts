// A second lab process on the same home (test/main/study/cross-process.test.ts): its own
// LabContext and study rows over the home and tasks folder given on the command line. It prints
// 'ready' once built, then answers each stdin line (JSON [method, params]) with one JSON line
// ({ok, result} or {ok: false, message}), and closes when stdin ends.
import { createInterface } from 'node:readline';
import { createLabContext } from '../../../src/main/services/context';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { createStudyHandlers } from '../../../src/main/services/study';
import { registerLabKinds } from '../../../src/main/kinds/manifests';

// A child process of its own: the lab's kinds registered as every entry point does first.
registerLabKinds();

const [home, tasksDir] = process.argv.slice(2);
const ctx = createLabContext({
  gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } },
  tasksDir,
  home,
  version: '0.0.0-test',
  transport: 'direct',
  listTasks: async () => [],
});
const handlers = createStudyHandlers(ctx) as unknown as Handlers;
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const [method, params] = JSON.parse(line) as [string, unknown];
  const out = await dispatchCall(handlers, method, params);
  process.stdout.write(`${JSON.stringify(out.ok ? { ok: true, result: out.result } : { ok: false, message: out.message })}\n`);
}
await ctx.close();
