// The desktop app's first-run checks (src/main/app/electron-binary.ts): on a Node older than the
// one Electron's downloader declares, npm start says so in one line with the fix instead of
// failing inside the downloader.
import { describe, expect, it } from 'vitest';
import { downloaderProblem, minimumNode, versionAtLeast } from '../../../src/main/app/electron-binary';

describe('Electron downloader checks', () => {
  it('compares versions and reads engines.node', () => {
    expect(versionAtLeast('v22.12.0', '22.12.0')).toBe(true);
    expect(versionAtLeast('v22.11.9', '22.12.0')).toBe(false);
    expect(versionAtLeast('v24.1.0', '22.12.0')).toBe(true);
    expect(versionAtLeast('v20.20.2', '22.12.0')).toBe(false);
    expect(minimumNode('>= 22.12.0')).toBe('22.12.0');
    expect(minimumNode('>=12.20.55')).toBe('12.20.55');
    expect(minimumNode('^20 || ^22')).toBeNull();
  });

  it('names the Node needed and the fix in one line, and says nothing when Node is new enough', () => {
    const why = downloaderProblem('45.5.0', '>= 22.12.0', 'v20.20.2');
    expect(why).toBe('Electron 45.5.0 downloads its binary with a tool that needs Node 22.12.0 or newer, and this is Node 20.20.2: install Node 22 LTS (or newer) to get the desktop window');
    expect(why?.includes('\n')).toBe(false);
    expect(downloaderProblem('45.5.0', '>= 22.12.0', 'v22.12.0')).toBeNull();
    expect(downloaderProblem('39.5.0', '>=12.20.55', 'v20.20.2')).toBeNull();
  });
});
