// The search kind's renderer half (../kind.ts): the room navigator play view and its Results panel.
import type { RendererKindModule } from '../kind';
import SearchPlayView from './SearchPlayView.vue';
import SearchResults from './SearchResults.vue';

export const searchRenderer: RendererKindModule = { family: 'search', playView: SearchPlayView, resultsPanel: SearchResults };
