// The request a wizard is about to send: method, path, body and the equivalent curl line
// (domain/mutation/preview.ts previewLines), shown before anything is sent.
import React from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { previewLines, type Preview } from '../../domain/mutation/preview';
import { cutLines } from '../../domain/text';
import { useTerminalSize } from '../app/terminal';

/** The box's border and padding, left and right. */
const BOX_SIDES = 4;

/**
 * The lines of one request for a box `width` columns wide: the summary cut at the edge, then the
 * curl line whole, cut into lines with every character kept (read off the screen, they join back
 * exactly). The curl line carries the method, the path and the body verbatim, so they are shown on
 * their own (cut at the edge) only when it does not: a second copy would take rows 80x23 lacks.
 */
export function requestBoxLines(p: Preview, width: number): { text: string; bold?: boolean }[] {
  const [summary, request, ...rest] = previewLines(p);
  const curl = rest[rest.length - 1];
  const body = rest.length > 1 ? rest[0] : undefined;
  return [
    { text: summary, bold: true },
    ...(curl.includes(p.method) && curl.includes(p.path) ? [] : [{ text: request }]),
    ...(body !== undefined && !curl.includes(body) ? [{ text: body }] : []),
    ...cutLines(curl, width).map((text) => ({ text })),
  ];
}

/**
 * Each request in a box. One request: its curl line whole (wrapped, copyable). Two or more (a
 * change and its template): a line each, cut at the edge, as 80x23 has no rows for more; the
 * subcommand's --dry-run prints them whole.
 */
export function RequestPreview({ previews }: { previews: Preview[] }) {
  const { columns } = useTerminalSize();
  const width = Math.max(1, columns - BOX_SIDES);
  const lines =
    previews.length === 1
      ? requestBoxLines(previews[0], width)
      : previews.flatMap((p) => previewLines(p).map((text, j) => ({ text, bold: j === 0 })));
  return (
    <Box flexDirection="column" borderStyle="single" paddingX={1}>
      {lines.map((l, i) => (
        <Text key={i} bold={l.bold} wrap="truncate-end">
          {l.text}
        </Text>
      ))}
    </Box>
  );
}

/**
 * One request in the space 80x24 leaves beside a review: a bar on the left instead of a box;
 * method and path wrap (every parameter visible), the body and the curl line are cut.
 */
export function RequestPreviewBar({ preview }: { preview: Preview }) {
  const [summary, request, ...rest] = previewLines(preview);
  return (
    <Box flexDirection="column" borderStyle="single" borderTop={false} borderBottom={false} borderRight={false} paddingLeft={1}>
      <Text bold wrap="truncate-end">
        {summary}
      </Text>
      <Text wrap="wrap">{request}</Text>
      {rest.map((l) => (
        <Text key={l} wrap="truncate-end">
          {l}
        </Text>
      ))}
    </Box>
  );
}
