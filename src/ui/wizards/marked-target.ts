// What the Indices pane's change keys act on (issue 43 item 4): the marked indices the key was
// pressed on (App.tsx puts them in the dialog, each name, never a pattern), else the highlighted
// one. Read once, when the wizard opens: a mark changed later does not move it.
import { useState } from 'react';
import { useConsoleContext } from '../app/context';

export function useIndicesTarget(): string {
  const { ui } = useConsoleContext();
  const [target] = useState(() => {
    const s = ui.getState();
    const marked = s.dialog?.kind === 'wizard' ? s.dialog.target : undefined;
    return marked ?? s.selection.indices?.index ?? '';
  });
  return target;
}
