// The protocol options of a SplatBench episode: aids a study may switch off, recorded in the
// trajectory header as `protocol_options` (docs/STUDIES.md; docs/DESIGN.md section 7).
// Invariant: the default is what a player gets when nobody chose, and it is always logged.
import { z } from 'zod';

/** Aids a study may switch off, recorded in the trajectory header as `protocol_options`. */
export const ProtocolOptionsSchema = z.strictObject({
  /** Matched play: the scene's outlines drawn over a reference photo when the view is snapped to its camera. */
  outline_overlay: z.boolean().optional(),
});
export type ProtocolOptions = z.infer<typeof ProtocolOptionsSchema>;
/** What a player gets when nobody chose (the play form and study sessions alike); always logged. */
export const DEFAULT_PROTOCOL_OPTIONS: ProtocolOptions = { outline_overlay: true };
