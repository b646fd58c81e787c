// Runs a piece of a test with some of the process's environment set, and puts every variable back
// as it was (set or absent) when the piece ends, however it ends. For the files that share a
// module graph with the files after them (the e2e project, vitest.e2e.config.ts), which must leave
// the process as they found it (test/lint/shared-graph.test.ts).
// Input: the variables and the piece. Output: the piece's result. Invariant: afterwards
// process.env holds exactly what it held before for those names.

export async function withEnv<T>(vars: Record<string, string>, piece: () => Promise<T>): Promise<T> {
  const before = Object.keys(vars).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, vars);
  try {
    return await piece();
  } finally {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
