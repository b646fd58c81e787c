// The unit files that run each in a module graph of their own (vitest.config.ts project 'node');
// every other Node file shares one graph per worker (project 'node-shared', isolate: false), so a
// file here is one that changes what a later file in the same process would see: it sets or deletes
// the process's environment (SPLATLAB_HOME, SPLATLAB_CAPTURES, SPLATLAB_LPIPS_DIR, ...), registers a
// kind, writes into a fixture built once per process, mocks a module, spies on a class or fakes
// the clock, or measures the process's peak
// memory (a peak an earlier file reached would count against it); and the slowest files, which
// start their own processes, servers and GPU devices and gain little from a shared graph (about a
// second of tens). Input: none. Output: the list.
// Invariant: the shared files pass in any order and on one worker (docs/DEVELOPING.md, "Test-suite
// time"); test/lint/slow-first.test.ts checks this list names real files.
export const ISOLATED_FILES = [
  // Peak memory measured against the process's own.
  'test/main/security/bomb-budgets.test.ts',
  'test/main/security/bombs.test.ts',
  'test/main/security/format-bombs.test.ts',
  // The slowest, 20 s and more on a loaded 2-core machine (test/helpers/slow-first.ts).
  'test/main/eval/python-package.test.ts',
  'test/main/authoring/capture.test.ts',
  'test/main/env/kill.test.ts',
  'test/main/kinds/search/random-action.test.ts',
  'test/main/env/conformance-committed-a.test.ts',
  'test/main/env/conformance-committed-b.test.ts',
  'test/main/grader/gpu-process.test.ts',
  'test/main/authoring/rebuild.test.ts',
  'test/main/queue/stall.test.ts',
  'test/main/queue/bullmq.test.ts',
  'test/main/workers/grade-yields.test.ts',
  // Tasks written into the test task folder built once per process (test/main/env/fixtures.ts
  // testTasks), which every later file of a shared worker would list.
  'test/main/transport/exactly-once.test.ts',
  'test/main/security/nerf-upload.test.ts',
  // Environment, kinds, mocks, spies, clocks.
  'test/main/authoring/session/upload.test.ts',
  'test/main/cli/commands/grade.test.ts',
  'test/main/cli/commands/search-judge.test.ts',
  'test/main/debug/open-files.test.ts',
  'test/main/debug/service.test.ts',
  'test/main/electron/ipc.test.ts',
  'test/main/env/trajectory-durability.test.ts',
  'test/main/eval/hygiene.test.ts',
  'test/main/io/process-lock.test.ts',
  'test/main/kinds/fifth/fifth-kind.test.ts',
  'test/main/kinds/plugins.test.ts',
  'test/main/kinds/relation/break-time.test.ts',
  'test/main/kinds/relation/model-latency.test.ts',
  'test/main/kinds/search/search-capture.test.ts',
  'test/main/services/session-lock.test.ts',
  'test/main/study/analyses-cancel.test.ts',
  'test/main/study/eval-study.test.ts',
  'test/main/study/paper.test.ts',
  'test/main/study/stations.test.ts',
  'test/main/study/withdrawal-export.test.ts',
  'test/main/transport/turns.test.ts',
];
