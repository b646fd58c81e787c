// The task-kind interface, renderer half (docs/DESIGN.md section 9): each kind family's play view.
// The app shell and the participant session open a task through playViewFor(kind), so a new kind
// adds its view here and nothing else in the shell changes.
// Invariant: every family of src/shared/kinds/registry.ts has a play view.
import type { Component } from 'vue';
import { kindModule } from '../../shared/kinds/registry';
import type { TaskKind } from '../../shared/task/schema';
import PlayView from './splatbench/PlayView.vue';
import RelationPlayView from './relation/RelationPlayView.vue';
import SearchPlayView from './search/SearchPlayView.vue';

export const PLAY_VIEWS: Readonly<Record<string, Component>> = { splatbench: PlayView, search: SearchPlayView, relation: RelationPlayView };

export function playViewFor(kind: TaskKind): Component {
  const view = PLAY_VIEWS[kindModule(kind).family];
  if (!view) throw new Error(`no play view for task kind '${kind}'`);
  return view;
}
