// Lint rules, including the layer table of docs/DESIGN.md section 1 (what each runtime folder may
// import) and the layers inside each runtime (docs/ARCHITECTURE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import vueParser from 'vue-eslint-parser';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'zlib', 'url', 'util', 'stream', 'worker_threads', 'events', 'buffer'];
const pattern = (group, message) => ({ group, message });

export const layerRules = {
  shared: [
    pattern([...nodeBuiltins], 'src/shared is pure: no Node built-ins (docs/DESIGN.md section 1).'),
    pattern(['electron', 'electron/*', 'vue', 'pinia', 'three', 'three/*', 'webgpu', 'ws'], 'src/shared may import only zod and itself.'),
    pattern(['**/main/**', '**/renderer/**', '**/preload/**'], 'src/shared may not import other layers.'),
  ],
  renderer: [
    pattern([...nodeBuiltins], 'src/renderer runs in the browser: no Node built-ins.'),
    pattern(['electron', 'electron/*', 'webgpu', 'ws'], 'src/renderer may not import electron, Dawn or ws.'),
    pattern(['**/main/**', '**/preload/**'], 'src/renderer may import only shared (and vue, pinia, three).'),
  ],
  main: [pattern(['**/renderer/**', '**/preload/**', 'vue', 'pinia', 'three', 'three/*'], 'src/main may not import renderer code or UI libraries.')],
};

// Layers inside each runtime (docs/ARCHITECTURE.md, "Layers inside a runtime"): each runtime's
// folders in tiers, bottom first; a folder may import its own tier and those below, never a tier
// above. Every folder of a runtime is in its table (test/lint/cycles.test.ts checks that, that the
// imports form no cycle, and that docs/ARCHITECTURE.md shows the same tiers). An entry with a `*`
// is a part of each kind's folder that sits in a higher tier than the rest of it (its study readers,
// its LabApi handlers, its LabApi rows); the rest of `kinds/` keeps the kinds tier.
export const runtimeTiers = {
  shared: [
    ['math', 'wasm'], ['scene'], ['gpu'], ['raster'], ['camera', 'image'], ['metrics'], ['formats', 'analysis'],
    ['env', 'task'], ['authoring', 'debug'], ['kinds'], ['study', 'kinds/*/export*.ts'], ['api', 'kinds/*/api*.ts', 'kinds/api.ts'],
  ],
  main: [
    ['io', 'models'], ['gpu', 'lpips', 'formats'], ['workers'], ['raster'], ['tasks'], ['grader'], ['env'], ['kinds'],
    ['episodes'], ['study', 'authoring', 'debug', 'kinds/*/study'], ['services', 'kinds/*/service'], ['transport', 'mcp'], ['eval'], ['queue'],
    ['electron', 'cli', 'app', 'threads', 'kinds/*/cli.ts', 'kinds/*/manifest.ts', 'kinds/manifest.ts', 'kinds/manifests.ts', 'kinds/plugins.ts'],
  ],
  renderer: [
    ['api', 'styles'], ['viewport', 'preview', 'study'], ['authoring'], ['stores'], ['components'], ['kinds'], ['views'],
  ],
};

const tierWhy = (runtime, tiers, at) =>
  `src/${runtime}/${tiers[at].join(', ')} may not import ${tiers.slice(at + 1).flat().join(', ')}, which sit above`;

// A kind-folder part (`kinds/*/...`) or a registry of the kinds in a higher tier (`kinds/<file>.ts`).
const isPart = (f) => f.includes('*') || f.startsWith('kinds/');
const globOf = (runtime, f) => (f.endsWith('.ts') ? `src/${runtime}/${f}` : `src/${runtime}/${f}/**/*.{ts,vue}`);

export const innerLayers = Object.entries(runtimeTiers).flatMap(([runtime, tiers]) => {
  const parts = tiers.flat().filter(isPart);
  return tiers.slice(0, -1).map((folders, at) => ({
    runtime, folders,
    // A kind's higher parts follow their own tier's rule, not the rule of the folder they sit in.
    ignores: folders.includes('kinds') ? parts.map((f) => globOf(runtime, f)) : [],
    banned: tiers.slice(at + 1).flat().filter((f) => !isPart(f)),
    why: tierWhy(runtime, tiers, at),
  }));
});

const innerRuleConfigs = innerLayers.map((l) => ({
  files: l.folders.map((f) => globOf(l.runtime, f)),
  ...(l.ignores.length ? { ignores: l.ignores } : {}),
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [...layerRules[l.runtime], pattern(l.banned.flatMap((b) => [`**/${l.runtime}/${b}/**`, `../${b}/**`, `../../${b}/**`, `../../../${b}/**`, `./${b}/**`, `../${b}`, `../../${b}`]), `${l.why} (docs/ARCHITECTURE.md).`)] },
    ],
  },
}));

// Kind names stay in the kinds (docs/ARCHITECTURE.md, "Kind names stay in the kinds"; issue 23):
// outside src/<runtime>/kinds/, no string literal, template or regex names a kind family or a
// kind (`'search'`, `'relation'`, `'reassembly'`) or a task-id prefix (`search__`). Shared
// machinery asks the kind interface instead. SPLATBENCH_MACHINERY lists the folders that serve
// SplatBench alone and predate the kind folders (its spec schema, grader, authoring and
// analyses); they may name SplatBench's own kinds (sculpt, reassembly, oneshot), never another
// family's. A kind's own CLI command is its folder's `cli.ts` (src/main/kinds/<kind>/cli.ts).
export const KIND_FAMILIES = ['splatbench', 'search', 'relation'];
export const SPLAT_KINDS = ['sculpt', 'reassembly', 'oneshot'];
export const SPLATBENCH_MACHINERY = ['src/shared/task/**', 'src/shared/analysis/**', 'src/main/grader/**', 'src/main/authoring/**', 'src/main/study/analyses.ts', 'src/main/cli/commands/author*.ts'];
const kindNameSelectors = (names) => {
  const alt = names.join('|');
  const message = 'a kind name or task-id prefix outside src/<runtime>/kinds/: ask the kind interface instead (docs/ARCHITECTURE.md, "Kind names stay in the kinds").';
  return [
    { selector: `Literal[value=/^(${alt})$/]`, message },
    { selector: `Literal[value=/^(${alt})__/]`, message },
    { selector: `TemplateElement[value.raw=/^(${alt})__/]`, message },
    { selector: `Literal[regex.pattern=/(${alt})__/]`, message },
  ];
};
// No file outside src/<runtime>/kinds/ imports a specific kind's folder (issue 39): the machinery
// reads what a kind supplies from the kinds' registries (docs/ARCHITECTURE.md, "The composition
// root and task kinds"); test/lint/kind-names.test.ts proves the rule fires.
const kindImportSelectors = () => {
  const message = 'a specific kind imported outside src/<runtime>/kinds/: read it from the kinds\' registry (docs/ARCHITECTURE.md, "Kind names stay in the kinds").';
  const source = `[source.value=/kinds.(${KIND_FAMILIES.join('|')})($|[^-a-z])/]`;
  return ['ImportDeclaration', 'ImportExpression', 'ExportNamedDeclaration', 'ExportAllDeclaration'].map((node) => ({ selector: `${node}${source}`, message }));
};
const kindNameRules = (names) => {
  const selectors = [...kindNameSelectors(names), ...kindImportSelectors()];
  return { 'no-restricted-syntax': ['error', ...selectors], 'vue/no-restricted-syntax': ['error', ...selectors] };
};
const outsideKinds = ['src/*/kinds/**'];

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-results/**', 'tasks/**', 'docs/**', 'reports/**', '.stryker-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, sourceType: 'module' } },
  },
  {
    rules: {
      // TypeScript (tsc and vue-tsc) already checks that every name exists, with the right globals
      // per tsconfig; eslint's own check knows no DOM or Node globals in .vue/.ts files.
      'no-undef': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/multiline-html-element-content-newline': 'off',
      'vue/html-closing-bracket-newline': 'off',
    },
  },
  { files: ['src/shared/**/*.ts'], rules: { ...restrict(layerRules.shared), 'no-console': 'error' } },
  { files: ['src/renderer/**/*.{ts,vue}'], rules: { ...restrict(layerRules.renderer), 'no-console': 'error' } },
  // Components reach the API through stores (docs/ARCHITECTURE.md; test/lint/vue-stores.test.ts):
  // no .vue file imports the API client at run time (types are fine); stores/connection.ts hands
  // out the handle that store actions take. A second rule name, so the layer rule above stays.
  {
    files: ['src/renderer/**/*.vue'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['**/api/client', '**/api/link'], allowTypeImports: true, message: 'a component reaches the API through a store: take the handle from stores/connection.ts and call a store action.' }] }],
    },
  },
  { files: ['src/main/**/*.ts'], rules: restrict(layerRules.main) },
  ...innerRuleConfigs,
  { files: ['src/**/*.{ts,vue}'], ignores: outsideKinds, rules: kindNameRules([...KIND_FAMILIES, ...SPLAT_KINDS]) },
  { files: SPLATBENCH_MACHINERY, ignores: outsideKinds, rules: kindNameRules(KIND_FAMILIES) },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pattern(['**/main/**', '**/renderer/**', 'vue', 'pinia', 'three', 'webgpu', 'ws'], 'src/preload is minimal: electron and type-only shared imports.'),
            { group: ['**/shared/**'], allowTypeImports: true, message: 'src/preload may import shared types only (import type).' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
  },
);
