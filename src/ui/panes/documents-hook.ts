// `v` in the index detail (keymap id detail.documents): opens the Documents view of the index.
// The Documents view is built on another branch; when it is merged, connect it here (open the view
// for `index` and return undefined). Until then the key says so instead of pretending.
import type { ConsoleContextValue } from '../app/context';

/** Opens the Documents view of `index`; returns a one-line note when nothing could be opened. */
export function openDocumentsView(_ctx: ConsoleContextValue, _index: string): string | undefined {
  return 'documents: not available in this build';
}
