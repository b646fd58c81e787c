// The kinds `SPLATLAB_KINDS` named when the renderer was built (src/main/kinds/vite-kinds.ts);
// an empty list in the app's own build.
declare module 'virtual:splatlab-kinds' {
  const kinds: readonly import('./kind').BundledKind[];
  export default kinds;
}
