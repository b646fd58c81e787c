// Test order for the unit and e2e suites (vitest.config.ts, vitest.e2e.config.ts): the files measured slowest on the 2-core CI
// machine start first, then vitest's own order (its cache of durations where it has one; a fresh
// clone has none and would run files in glob order, leaving a 20 s file for the end of one
// worker while the other idles). Input: the test files; output: the same files, reordered.
// Invariant: only the order changes; every file runs. Keep the list to files over about 4 s
// (docs/DEVELOPING.md, "Test-suite time").
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Slowest first, as measured (the per-file durations of the last full run of both suites, 2 cores, 2026-12-05). */
export const SLOW_FILES = [
  'test/main/eval/python-package.test.ts',
  'test/main/authoring/capture.test.ts',
  'test/main/env/kill.test.ts',
  'test/shared/raster/gpu/parity.test.ts',
  'test/main/kinds/search/random-action.test.ts',
  'test/main/env/conformance-committed-a.test.ts',
  'test/main/grader/gpu-process.test.ts',
  'test/main/authoring/rebuild.test.ts',
  'test/main/authoring/session/upload.test.ts',
  'test/main/env/conformance-committed-b.test.ts',
  'test/main/study/paper.test.ts',
  'test/main/security/format-bombs.test.ts',
  'test/shared/raster/gpu/radix-path.test.ts',
  'test/main/queue/stall.test.ts',
  'test/main/queue/bullmq.test.ts',
  'test/main/kinds/relation/sparrta-export.test.ts',
  'test/main/authoring/build.test.ts',
  'test/main/security/home-writes.test.ts',
  'test/main/kinds/relation/sparrta-import.test.ts',
  'test/main/eval/analyses.test.ts',
  'test/main/authoring/nerf.test.ts',
  'test/lint/optional-ci.test.ts',
  'test/main/lpips/clone-anywhere.test.ts',
  'test/main/formats/read-oracle.test.ts',
  'test/main/security/bomb-budgets.test.ts',
  'test/main/study/cross-process.test.ts',
  'test/main/grader/grader.test.ts',
  'test/main/kinds/search/study-search.test.ts',
  'test/main/cli/orphan-npx.test.ts',
  'test/shared/metrics/wasm/lpips-wasm.test.ts',
  'test/main/kinds/fifth/fifth-kind.test.ts',
  'test/main/workers/pool.test.ts',
  'test/shared/raster/gpu/rasterizer.test.ts',
  'test/main/raster/views.test.ts',
  'test/main/cli/render-formats.test.ts',
  'test/main/security/nerf-upload.test.ts',
  'test/main/app/ownership.test.ts',
  'test/main/security/attacks.test.ts',
  'test/main/lpips/pool.test.ts',
  'test/main/mcp/mcp.test.ts',
  'test/shared/metrics/gpu/gpu-metrics.test.ts',
  'test/main/eval/killed-attempt-cost.test.ts',
  'test/main/workers/split.test.ts',
  'test/main/kinds/relation/block.test.ts',
  'test/main/workers/serve.test.ts',
  'test/main/cli/compiled-cli.test.ts',
  'test/main/cli/drain.test.ts',
  'test/main/cli/kind-free.test.ts',
  'test/main/kinds/search/task-set.test.ts',
  'test/main/workers/jobs.test.ts',
  'test/main/eval/inspect-export.test.ts',
  'test/main/cli/commands/search-cli.test.ts',
  'test/main/study/journal.test.ts',
  'test/main/eval/inspect-schema.test.ts',
  'test/main/study/stations.test.ts',
  'test/main/kinds/search/answerability-filter.test.ts',
  // 8-11 s in the unit suite of 2026-12-05 22:00 (load 8-10).
  'test/main/debug/service.test.ts',
  'test/main/security/bombs.test.ts',
  // The e2e suite (vitest.e2e.config.ts), slowest first.
  'test/e2e/play-typed.e2e.ts',
  'test/e2e/author-iterate.e2e.ts',
  'test/e2e/relation-block.e2e.ts',
  'test/e2e/restart-reconnect.e2e.ts',
  'test/e2e/debug-large.e2e.ts',
  'test/e2e/search-annotate.e2e.ts',
  'test/e2e/play-person.e2e.ts',
  'test/e2e/author.e2e.ts',
  'test/e2e/play.e2e.ts',
  'test/e2e/participant-isolation.e2e.ts',
  'test/e2e/search-results.e2e.ts',
  'test/e2e/play-select.e2e.ts',
  'test/e2e/play-aids.e2e.ts',
  'test/e2e/debug.e2e.ts',
  'test/e2e/study.e2e.ts',
  'test/e2e/paper.e2e.ts',
  'test/e2e/study-withdraw-export.e2e.ts',
  'test/e2e/relation-trials.e2e.ts',
  'test/e2e/process-log.e2e.ts',
  'test/e2e/relation-import.e2e.ts',
  'test/e2e/results-analyses.e2e.ts',
  'test/e2e/checks.e2e.ts',
  'test/e2e/inspect-viewer.e2e.ts',
  'test/e2e/fourth-kind.e2e.ts',
  'test/e2e/task-registry.e2e.ts',
  'test/e2e/free-play-results.e2e.ts',
  'test/e2e/debug-fly.e2e.ts',
  'test/e2e/first-screen.e2e.ts',
  'test/e2e/stations.e2e.ts',
  'test/e2e/search-prop.e2e.ts',
  'test/e2e/analyses-cancel.e2e.ts',
  'test/e2e/search-capture-play.e2e.ts',
  'test/e2e/search-play.e2e.ts',
  'test/e2e/import-up.e2e.ts',
  'test/e2e/handover-token.e2e.ts',
  'test/e2e/debug-capture-overdraw.e2e.ts',
];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = `${process.cwd()}/`;
    const rank = (f: TestSpecification): number => {
      const at = SLOW_FILES.indexOf(f.moduleId.startsWith(root) ? f.moduleId.slice(root.length) : f.moduleId);
      return at < 0 ? SLOW_FILES.length : at;
    };
    // Array.prototype.sort is stable: files off the list keep vitest's order after the listed ones.
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map((x) => x.f);
  }
}
