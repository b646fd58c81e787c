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

// Layers inside each runtime (docs/ARCHITECTURE.md, "Layers inside a runtime"): a folder may not
// import the folders that sit above it. Each entry: the folders it covers, the folders they may
// not import, and why.
export const innerLayers = [
  // shared: numeric cores below the domain, the domain below the API table.
  { runtime: 'shared', folders: ['math', 'camera', 'image', 'gpu', 'raster', 'metrics'], banned: ['env', 'api', 'study', 'task', 'authoring', 'kinds', 'debug'], why: 'the numeric core (math, cameras, images, GPU host, rasterizer, metrics) may not import the domain or the API' },
  { runtime: 'shared', folders: ['env', 'task', 'scene'], banned: ['api', 'study', 'authoring', 'debug'], why: 'the episode, task and scene modules may not import the API table, studies, authoring or the debugger' },
  // main: devices and codecs at the bottom, then grader, env and tasks, then episodes and studies,
  // then services, then transports and the front doors.
  { runtime: 'main', folders: ['io', 'gpu', 'lpips', 'formats', 'raster'], banned: ['grader', 'env', 'tasks', 'episodes', 'studies', 'authoring', 'debug', 'services', 'transport', 'electron', 'cli', 'app', 'kinds', 'eval', 'mcp', 'queue'], why: 'codecs, splat formats, devices and rasterizer hosts may not import what uses them' },
  { runtime: 'main', folders: ['grader'], banned: ['env', 'episodes', 'studies', 'authoring', 'debug', 'services', 'transport', 'electron', 'cli', 'app', 'kinds', 'eval', 'mcp', 'queue'], why: 'the grader may not import services, transports or episodes' },
  { runtime: 'main', folders: ['env', 'tasks', 'kinds', 'episodes'], ignores: ['kinds/*/study', 'kinds/*/service'], banned: ['studies', 'services', 'transport', 'electron', 'cli', 'eval', 'mcp', 'queue'], why: 'environments, episodes and the kinds\' own folders may not import studies, services, transports or the agent harness' },
  // A kind's study readers (kinds/<kind>/study) sit in the studies tier, its LabApi handlers
  // (kinds/<kind>/service) in the services tier: the kind keeps them in its folder.
  { runtime: 'main', folders: ['studies', 'authoring', 'debug', 'kinds/*/study'], banned: ['services', 'transport', 'electron', 'cli', 'queue'], why: 'studies (a kind\'s study readers included), authoring and the debugger may not import services or transports' },
  { runtime: 'main', folders: ['services', 'kinds/*/service'], banned: ['transport', 'electron', 'cli'], why: 'services (a kind\'s LabApi handlers included) may not import transports or front doors' },
  { runtime: 'main', folders: ['transport'], banned: ['electron', 'cli'], why: 'transports may not import the front doors' },
  // The agent harness: MCP is a transport; eval (model runners) sits above it, the queue above eval.
  { runtime: 'main', folders: ['mcp'], banned: ['eval', 'queue', 'electron', 'cli'], why: 'the MCP transport may not import the model runners, the queue or the front doors' },
  { runtime: 'main', folders: ['eval'], banned: ['queue', 'electron', 'cli'], why: 'the model runners may not import the queue or the front doors' },
  { runtime: 'main', folders: ['queue'], banned: ['electron', 'cli'], why: 'the run queue may not import the front doors' },
];

const innerRuleConfigs = innerLayers.map((l) => ({
  files: l.folders.map((f) => `src/${l.runtime}/${f}/**/*.ts`),
  ...(l.ignores ? { ignores: l.ignores.map((f) => `src/${l.runtime}/${f}/**`) } : {}),
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [...layerRules[l.runtime], pattern(l.banned.flatMap((b) => [`**/${l.runtime}/${b}/**`, `../${b}/**`, `../../${b}/**`, `../../../${b}/**`, `./${b}/**`]), `${l.why} (docs/ARCHITECTURE.md).`)] },
    ],
  },
}));

// Kind names stay in the kinds (docs/ARCHITECTURE.md, "Kind names stay in the kinds"; issue 23):
// outside src/<runtime>/kinds/, no string literal, template or regex names a kind family or a
// kind (`'search'`, `'relation'`, `'reassembly'`) or a task-id prefix (`search__`). Shared
// machinery asks the kind interface instead. SPLATBENCH_MACHINERY lists the folders that serve
// SplatBench alone and predate the kind folders (its Episode, spec schema, grader, authoring and
// analyses); they may name SplatBench's own kinds (sculpt, reassembly, oneshot), never another
// family's. A kind's own CLI command (KIND_COMMANDS) is named after its family.
export const KIND_FAMILIES = ['splatbench', 'search', 'relation'];
export const SPLAT_KINDS = ['sculpt', 'reassembly', 'oneshot'];
export const SPLATBENCH_MACHINERY = ['src/shared/env/**', 'src/shared/task/**', 'src/shared/analysis/**', 'src/main/env/**', 'src/main/grader/**', 'src/main/authoring/**', 'src/main/eval/analyses.ts', 'src/main/cli/commands/author*.ts'];
export const KIND_COMMANDS = ['src/main/cli/commands/search.ts', 'src/main/cli/commands/relation.ts'];
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
const kindNameRules = (names) => ({ 'no-restricted-syntax': ['error', ...kindNameSelectors(names)], 'vue/no-restricted-syntax': ['error', ...kindNameSelectors(names)] });
const outsideKinds = ['src/*/kinds/**'];

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-results/**', 'tasks/**', 'docs/**'] },
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
  { files: ['src/main/**/*.ts'], rules: restrict(layerRules.main) },
  ...innerRuleConfigs,
  { files: ['src/**/*.{ts,vue}'], ignores: [...outsideKinds, ...KIND_COMMANDS], rules: kindNameRules([...KIND_FAMILIES, ...SPLAT_KINDS]) },
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
