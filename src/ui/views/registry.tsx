// Views opened over a pane for the row under the cursor (Esc goes back): reads only, so unlike
// the wizards they open on a keymap row that is not `dangerous` and work in read-only mode.
// App opens one when its key is pressed where the row's scope says, for the selected index (or
// what the entry's `target` picks from the selection: the Nodes pane's node).
import React from 'react';
import { Text } from '../components/Text';
import type { CommandId } from '../../keys/keymap';
import type { Selection } from '../../domain/panes';
import { HotThreadsView } from './HotThreadsView';
import { useWizardServices } from '../wizards/services';
import { DocumentsView } from './DocumentsView';
import { XrayView } from './XrayView';
import { OutputView } from './OutputView';
import { displayText } from '../../domain/text/display-text';

export interface ViewProps {
  index: string;
  width: number;
  height: number;
  onClose: () => void;
}

export interface ViewEntry {
  id: string;
  title: (index: string) => string;
  /** The keymap command that opens it on the Indices pane's selected row (none: the command line opens it). */
  commandId?: CommandId;
  /** What it is opened on, from the selection (default: the Indices pane's index). */
  target?: (s: Selection) => string | undefined;
  component: React.ComponentType<ViewProps>;
}

function Documents(p: ViewProps) {
  const services = useWizardServices();
  if (!services) return <Text>documents cannot be read here (no connection to the cluster was given to the console)</Text>;
  return <DocumentsView services={services} {...p} />;
}

function HotThreads(p: ViewProps) {
  const services = useWizardServices();
  if (!services) return <Text>hot threads cannot be read here (no connection to the cluster was given to the console)</Text>;
  return <HotThreadsView services={services} {...p} />;
}

function Xray(p: ViewProps) {
  const services = useWizardServices();
  if (!services) return <Text>the x-ray cannot be read here (no connection to the cluster was given to the console)</Text>;
  return <XrayView services={services} {...p} />;
}

export const VIEWS: ViewEntry[] = [
  { id: 'xray', title: (index) => `X-ray of ${displayText(index)}`, commandId: 'indices.xray', component: Xray },
  { id: 'documents', title: (index) => `Documents of ${index}`, commandId: 'indices.documents', component: Documents },
  {
    id: 'hotThreads',
    title: (node) => `Hot threads of ${displayText(node)}`,
    commandId: 'nodes.hotThreads',
    target: (s) => s.nodes?.node,
    component: HotThreads,
  },
  // A read command run from the command line (`:cat allocation`): `index` holds the line.
  { id: 'output', title: (line) => `:${displayText(line)}`, component: OutputView },
];
