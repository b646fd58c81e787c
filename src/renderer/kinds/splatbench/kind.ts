// SplatBench's renderer half (./../kind.ts): the sculpt play view (src/renderer/views/PlayView.vue);
// its results are the shared study tables, so it has no panel of its own.
import PlayView from './PlayView.vue';
import type { RendererKindModule } from '../kind';

export const splatbenchRenderer: RendererKindModule = { family: 'splatbench', playView: PlayView };
