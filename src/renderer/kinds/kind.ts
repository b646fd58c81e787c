// The task-kind interface, renderer half (docs/DESIGN.md section 9): what a kind family shows in
// the app. The app shell, the participant session and Results open a kind's parts only through
// src/renderer/kinds/registry.ts. Invariant: a component here receives only public episode data.
import type { Component } from 'vue';
import type { KindModuleInput } from '../../shared/kinds/kind';

export interface RendererKindModule {
  readonly family: string;
  /** The play view of the kind's tasks (it reads the episode store). */
  readonly playView: Component;
  /** The kind's own panel in a study's Results (props: `studyId`), if it has one. */
  readonly resultsPanel?: Component;
  /** Top-level views the kind adds to the app, by their name in the nav store (search: `annotate`); default none. */
  readonly views?: Readonly<Record<string, Component>>;
}

/** One `SPLATLAB_KINDS` folder as the renderer build bundles it (src/main/kinds/vite-kinds.ts). */
export interface BundledKind {
  readonly shared: KindModuleInput;
  readonly renderer: RendererKindModule;
}
