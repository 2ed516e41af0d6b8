// The console's one <Text>: every string it shows goes through the display sanitiser
// (domain/text/display-text.ts), so a name, reason or log line holding ESC/BEL/CSI or a right-to-left
// override is shown escaped, whichever pane or dialog prints it. Panes import this, never Ink's
// Text (test/unit/display-boundary.test.ts fails otherwise). Line breaks and tabs are kept here as
// layout; a table cell is one line (DataTable escapes those too).
import { Text as InkText, type TextProps } from 'ink';
import React from 'react';
import { displayBlock } from '../../domain/text/display-text';

function safe(node: React.ReactNode): React.ReactNode {
  if (typeof node === 'string') return displayBlock(node);
  if (Array.isArray(node)) return node.map(safe);
  return node;
}

export function Text({ children, ...props }: TextProps): React.ReactElement {
  // Children spread as arguments (as JSX passes them): an array child would need keys.
  return Array.isArray(children)
    ? React.createElement(InkText, props, ...children.map(safe))
    : React.createElement(InkText, props, safe(children));
}
