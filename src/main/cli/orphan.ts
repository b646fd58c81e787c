// Child processes end with their parent (docs/AGENTS.md "Processes"): `npx splatlab ...` runs this
// CLI as a child of npx, and killing npx (SIGTERM, a closed terminal) does not signal the child, so
// a server would run on unseen. The CLI watches its parent: when the parent is gone (this process
// was re-parented) or the terminal hangs up, it exits; a child it started itself gets the signal.
// Input: the process. Output: none. Invariant: the watch never keeps the event loop alive.

/** Exits when the parent process goes away; returns the stop function (for tests). */
export function exitWithParent(onExit: (why: string) => void = () => process.exit(129), pollMs = 1000): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) onExit(`the parent process ${parent} ended`);
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
