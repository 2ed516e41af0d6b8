// `v` in the index detail (keymap id detail.documents): the Documents view of the index, opened
// over the detail (its Esc comes back here), as `v` on an Indices row does.
import type { ConsoleContextValue } from '../app/context';

/** Opens the Documents view of `index`; returns a one-line note when nothing could be opened. */
export function openDocumentsView(ctx: ConsoleContextValue, index: string): string | undefined {
  ctx.ui.setState({ dialog: { kind: 'view', id: 'documents', index }, filtering: false });
  return undefined;
}
