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
// imports form no cycle, and that docs/ARCHITECTURE.md shows the same tiers).
export const runtimeTiers = {
  shared: [
    ['math'], ['scene'], ['gpu'], ['raster'], ['camera', 'image'], ['metrics'], ['formats', 'analysis'],
    ['env', 'task'], ['authoring', 'debug'], ['kinds'], ['study'], ['api'],
  ],
  main: [
    ['io', 'models'], ['gpu', 'lpips', 'formats'], ['workers'], ['raster'], ['tasks'], ['grader'], ['env'], ['kinds'],
    ['episodes'], ['studies', 'authoring', 'debug'], ['services'], ['transport', 'mcp'], ['eval'], ['queue'],
    ['electron', 'cli', 'app', 'threads'],
  ],
  renderer: [
    ['api', 'styles'], ['viewport', 'preview', 'study'], ['author'], ['stores'], ['components'], ['kinds'], ['views'],
  ],
};

const tierWhy = (runtime, tiers, at) =>
  `src/${runtime}/${tiers[at].join(', ')} may not import ${tiers.slice(at + 1).flat().join(', ')}, which sit above`;

export const innerLayers = Object.entries(runtimeTiers).flatMap(([runtime, tiers]) =>
  tiers.slice(0, -1).map((folders, at) => ({ runtime, folders, banned: tiers.slice(at + 1).flat(), why: tierWhy(runtime, tiers, at) })),
);

const innerRuleConfigs = innerLayers.map((l) => ({
  files: l.folders.map((f) => `src/${l.runtime}/${f}/**/*.{ts,vue}`),
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [...layerRules[l.runtime], pattern(l.banned.flatMap((b) => [`**/${l.runtime}/${b}/**`, `../${b}/**`, `../../${b}/**`, `../../../${b}/**`, `./${b}/**`, `../${b}`, `../../${b}`]), `${l.why} (docs/ARCHITECTURE.md).`)] },
    ],
  },
}));

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
