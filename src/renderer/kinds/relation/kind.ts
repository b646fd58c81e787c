// The relation kind's renderer half (../kind.ts): the trial view and its Results panel.
import type { RendererKindModule } from '../kind';
import RelationPlayView from './RelationPlayView.vue';
import RelationResults from './RelationResults.vue';

export const relationRenderer: RendererKindModule = { family: 'relation', playView: RelationPlayView, resultsPanel: RelationResults };
