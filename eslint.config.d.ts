// Types of what eslint.config.js exports for the lint tests (test/lint/cycles.test.ts).
export declare const runtimeTiers: Record<'shared' | 'main' | 'renderer', string[][]>;
export declare const innerLayers: { runtime: string; folders: string[]; banned: string[]; why: string }[];
export declare const layerRules: Record<string, { group: string[]; message: string }[]>;
declare const config: unknown[];
export default config;
