// Commands marked withoutKinds (src/main/cli/command.ts, `splatlab grade`) start without the
// kinds' modules (issue 40 item 3: a third of a cold start); every other command still registers
// the kinds first. In a fresh process each (the unit setup registers the kinds).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/main/cli/commands/index';

const root = join(__dirname, '..', '..', '..');
const url = (rel: string): string => JSON.stringify(pathToFileURL(join(root, rel)).href);
const SCRIPT = `
import { main } from ${url('src/main/splatlab.ts')};
import { mainKinds } from ${url('src/main/kinds/registry.ts')};
const code = await main(JSON.parse(process.env.ARGV));
const registered = mainKinds().length > 0;
process.stdout.write('\\n' + JSON.stringify({ code, registered }) + '\\n');
process.exit(0);
`;

function run(argv: string[]): { code: number; registered: boolean } {
  const env: NodeJS.ProcessEnv = { ...process.env, ARGV: JSON.stringify(argv) };
  delete env.SPLATLAB_KINDS;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: root, encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { code: number; registered: boolean };
}

describe('commands without kinds', () => {
  it('grade is one; it starts without registering the kinds, tasks still registers them', () => {
    expect(COMMANDS.grade.withoutKinds).toBe(true);
    expect(COMMANDS.tasks.withoutKinds).toBeUndefined();
    expect(run(['grade', '--help'])).toEqual({ code: 0, registered: false });
    expect(run(['tasks', '--help'])).toEqual({ code: 0, registered: true });
  });
});
