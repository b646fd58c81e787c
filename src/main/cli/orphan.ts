// Child processes end with their parent (docs/AGENTS.md "Processes"): `npx splatlab ...` runs this
// CLI as a child of npx, through a `sh -c` wrapper (npm exec's script shell), and killing npx
// (SIGKILL, SIGTERM, a closed terminal) signals neither, so a server would run on unseen. The CLI
// watches its parent and, through any `sh -c` wrappers between, the process that started them:
// when one of them is gone (its child was re-parented) or the terminal hangs up, it exits; a child
// it started itself gets the signal.
// Input: the process (and /proc where there is one). Output: none.
// Invariant: the watch never keeps the event loop alive; without /proc it watches the parent only.
import { readFileSync } from 'node:fs';

/** A process's parent id and argument list from /proc, or null (no /proc, or the process is gone). */
function procOf(pid: number): { ppid: number; argv: string[] } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name sits in parentheses and may hold spaces: the fields follow the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
    return Number.isInteger(ppid) ? { ppid, argv } : null;
  } catch {
    return null;
  }
}

/** A shell run only to start one command (`sh -c 'splatlab' ...`), as npm exec and many wrappers do. */
function isScriptShell(argv: readonly string[]): boolean {
  const name = (argv[0] ?? '').split('/').pop() ?? '';
  return ['sh', 'bash', 'dash', 'zsh'].includes(name) && argv[1] === '-c';
}

/**
 * The (child, parent) links to watch: this process and its parent, then, while the parent is a
 * script shell, that shell and the process that started it (at most 4 links).
 */
export function parentLinks(pid: number = process.pid, ppid: number = process.ppid, proc = procOf): { child: number; parent: number }[] {
  const links = [{ child: pid, parent: ppid }];
  let at = ppid;
  for (let depth = 0; depth < 3; depth++) {
    const p = proc(at);
    if (!p || !isScriptShell(p.argv) || p.ppid <= 1) break;
    links.push({ child: at, parent: p.ppid });
    at = p.ppid;
  }
  return links;
}

/** Exits when the parent process (or the starter of a script shell between) goes away; returns the stop function (for tests). */
export function exitWithParent(onExit: (why: string) => void = () => process.exit(129), pollMs = 1000): () => void {
  const links = parentLinks();
  const timer = setInterval(() => {
    if (process.ppid !== links[0].parent) return onExit(`the parent process ${links[0].parent} ended`);
    for (const l of links.slice(1)) {
      // A shell whose starter died is re-parented (or gone with it): either way the link broke.
      if (procOf(l.child)?.ppid !== l.parent) return onExit(`the process ${l.parent} that started it ended`);
    }
  }, pollMs);
  timer.unref();
  const hup = (): void => onExit('the terminal hung up');
  process.once('SIGHUP', hup);
  return () => {
    clearInterval(timer);
    process.off('SIGHUP', hup);
  };
}

/** Forwards the signals that end this process to a child it started, so the child ends too. */
export function endChildWithUs(child: { kill(signal?: NodeJS.Signals): boolean; exitCode: number | null }): void {
  const forward = (signal: NodeJS.Signals) => (): void => {
    if (child.exitCode === null) child.kill(signal);
  };
  for (const s of ['SIGTERM', 'SIGHUP'] as const) process.once(s, forward(s));
  process.once('exit', () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  });
}
