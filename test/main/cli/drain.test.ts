// `splatlab` drains stdout before it exits (issue 38 item 6): `splatlab tasks --json` piped into a
// reader slower than the command (1 KiB per read, a pause between reads) gets every byte, the same
// bytes a file gets. Before the fix the command exited with the pipe's 64 KiB taken and the rest
// of its ~190 KiB lost.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = join(process.cwd(), 'src/main/cli/splatlab.mjs');
// Reads stdin 1 KiB at a time with a 2 ms pause after each read, then prints how many bytes came.
const SLOW_READER = `const fs=require('fs');const b=Buffer.alloc(1024);const s=new Int32Array(new SharedArrayBuffer(4));let n=0;for(;;){const r=fs.readSync(0,b,0,b.length,null);if(r===0)break;n+=r;Atomics.wait(s,0,0,2);}process.stdout.write(String(n));`;

describe('splatlab exits only after its output is drained', () => {
  it('gives a slow pipe every byte of tasks --json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-drain-'));
    const file = join(dir, 'tasks.json');
    execFileSync('sh', ['-c', `"${process.execPath}" "${CLI}" tasks --json > "${file}"`]);
    const whole = readFileSync(file);
    expect(whole.length).toBeGreaterThan(128 * 1024); // more than a pipe holds, or the test proves nothing
    expect(() => JSON.parse(whole.toString('utf8'))).not.toThrow();
    const piped = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" tasks --json | "${process.execPath}" -e "${SLOW_READER}"`], { encoding: 'utf8' });
    expect(piped.stderr).toBe('');
    expect(Number(piped.stdout)).toBe(whole.length);
  }, 120_000);
});
