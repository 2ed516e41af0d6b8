// The request a wizard is about to send: method, path, body and the equivalent curl line
// (domain/mutation/preview.ts previewLines), shown before anything is sent.
import React from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { previewLines, type Preview } from '../../domain/mutation/preview';

/** Each request in a box, long lines cut. */
export function RequestPreview({ previews }: { previews: Preview[] }) {
  return (
    <Box flexDirection="column" borderStyle="single" paddingX={1}>
      {previews.flatMap((p, i) => previewLines(p).map((l, j) => <Text key={`${i}-${j}`} bold={j === 0} wrap="truncate-end">{l}</Text>))}
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
      <Text bold wrap="truncate-end">{summary}</Text>
      <Text wrap="wrap">{request}</Text>
      {rest.map((l) => (
        <Text key={l} wrap="truncate-end">{l}</Text>
      ))}
    </Box>
  );
}
