// The folders that docs/MUTATION.md scores, each with the sources Stryker mutates and the test files
// that guard them (the mirrored test/ folders, plus the few tests elsewhere that exercise the folder).
// `sample` keeps a run affordable on a shared 2-core machine (docs/MUTATION.md, "Sampling").
// Invariant: every glob is repo-relative; a folder's tests are the only ones its runs load.
export interface MutationFolder {
  mutate: string[];
  tests: string[];
  /** Default share of source lines (percent) whose mutants a run tests; 100 is the census. */
  sample: number;
}

export const mutationFolders: Record<string, MutationFolder> = {
  env: {
    mutate: ['src/shared/env/**/*.ts'],
    tests: ['test/shared/env/**/*.test.ts', 'test/main/env/tools-doc.test.ts'],
    sample: 8,
  },
  metrics: {
    mutate: ['src/shared/metrics/**/*.ts'],
    tests: ['test/shared/metrics/**/*.test.ts', 'test/shared/authoring/fit/ssim.test.ts'],
    sample: 7,
  },
  search: {
    mutate: ['src/shared/kinds/search/**/*.ts', 'src/main/kinds/search/**/*.ts'],
    tests: ['test/shared/kinds/search/**/*.test.ts', 'test/main/kinds/search/**/*.test.ts'],
    sample: 0.5,
  },
  relation: {
    mutate: ['src/shared/kinds/relation/**/*.ts', 'src/main/kinds/relation/**/*.ts'],
    // inspect-export.test.ts is the one test of the relation Inspect scorer (study/scorer.ts).
    tests: ['test/shared/kinds/relation/**/*.test.ts', 'test/main/kinds/relation/**/*.test.ts', 'test/main/eval/inspect-export.test.ts'],
    sample: 0.75,
  },
  study: {
    mutate: ['src/shared/study/**/*.ts', 'src/main/study/**/*.ts'],
    tests: ['test/shared/study/**/*.test.ts', 'test/main/study/**/*.test.ts'],
    sample: 1,
  },
  roles: {
    mutate: ['src/shared/api/roles.ts', 'src/main/services/roles.ts'],
    tests: ['test/main/roles/**/*.test.ts'],
    sample: 15,
  },
  formats: {
    mutate: ['src/shared/formats/**/*.ts', 'src/main/formats/**/*.ts'],
    tests: ['test/shared/formats/**/*.test.ts', 'test/main/formats/**/*.test.ts'],
    sample: 2.5,
  },
};
