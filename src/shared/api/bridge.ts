// The raw shape of `window.lab` that the Electron preload exposes. The renderer wraps it into a
// typed LabApi (src/renderer/api); the preload imports this type only.
export type BridgeOutcome = { ok: true; result: unknown } | { ok: false; code: string; message: string };

export interface LabBridge {
  invoke(method: string, params: unknown): Promise<BridgeOutcome>;
  onEvent(listener: (event: string, data: unknown) => void): () => void;
}
