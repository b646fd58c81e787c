// The search kind's renderer half (../kind.ts): the room navigator play view, its Results panel and
// the annotation view.
import type { RendererKindModule } from '../kind';
import SearchPlayView from './SearchPlayView.vue';
import SearchResults from './SearchResults.vue';
import AnnotateView from './AnnotateView.vue';

export const searchRenderer: RendererKindModule = { family: 'search', playView: SearchPlayView, resultsPanel: SearchResults, views: { annotate: AnnotateView } };
