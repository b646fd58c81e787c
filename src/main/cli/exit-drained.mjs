// Exiting the `splatlab` command without losing output (issue 38 item 6): process.exit() ends the
// process at once, and on a pipe whose reader is slower than us (`splatlab tasks --json | slow`)
// Node still holds the bytes the pipe did not take yet, so they were lost (64-128 KiB of 187 KiB
// came through). Plain JavaScript, like its caller splatlab.mjs. Input: the exit code. Output:
// none; the process ends. Invariant: stdout and stderr have handed every byte written before the
// call to the operating system (or their reader is gone) before the process exits.

/** Resolves once every write queued on `stream` so far is flushed, or the stream cannot take more. */
export function drained(stream) {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableEnded || !stream.writable) return resolve();
    // A reader that went away (EPIPE) must not crash the exit: nothing more can reach it.
    stream.once('error', () => resolve());
    stream.write('', () => resolve());
  });
}

export async function exitDrained(code) {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}
