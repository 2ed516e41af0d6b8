// What the Indices pane's change keys act on (issue 43 item 4): the marked indices still there,
// named one by one, else the highlighted one. Read once, when the wizard opens: the preview is
// built from the names as they are then, and a mark changed later does not move it.
import { useState } from 'react';
import { changeTarget } from '../../domain/console/marks';
import { useConsoleContext } from '../app/context';

export function useIndicesTarget(): string {
  const { store, ui } = useConsoleContext();
  const [target] = useState(() => {
    const names = (store.getState().snapshots.indices.data ?? []).map((i) => i.name);
    const s = ui.getState();
    return changeTarget(s.marks, names, s.selection.indices?.index);
  });
  return target;
}
