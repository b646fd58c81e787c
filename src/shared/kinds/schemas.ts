// The wire schemas a kind's LabApi rows share with the lab's own (docs/API.md): kept under the
// kinds so a kind's rows (src/shared/kinds/<kind>/api*.ts) never import the table that composes
// them (src/shared/api/), which re-exports these; no folder cycle with each kind folder a unit.
import { z } from 'zod';

/** A PNG image as a `data:image/png;base64,...` URL. */
export const PngDataUrl = z.string().startsWith('data:image/png;base64,');

/** A row's parameters or result when it has none. */
export const Empty = z.strictObject({});
