// The request a wizard is about to send: method, path, body and the equivalent curl line
// (domain/mutation/preview.ts previewLines), shown before anything is sent.
import React, { useEffect } from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { previewLines, type Preview } from '../../domain/mutation/preview';
import { cutLines, wrapText } from '../../domain/text/text';
import { useTerminalSize } from '../app/terminal';
import { colourOf } from '../theme';
import { useOptionalConsoleContext } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { keyLabel } from '../../keys/keymap';

/** While a preview is on screen, its curl line(s) are what a wizard's copy key copies (ui/app/habits.ts). */
function useShownCurl(previews: Preview[]): void {
  const ui = useOptionalConsoleContext()?.ui;
  // One line: a line break in a paste would run each part at once; && stops at the first that cannot run.
  const curl = previews.map((p) => p.curl).join(' && ');
  useEffect(() => {
    if (!ui) return;
    ui.setState({ previewCurl: curl });
    return () => ui.setState({ previewCurl: undefined });
  }, [ui, curl]);
}

/** The box's border and padding, left and right. */
const BOX_SIDES = 4;
/** The bar's border and padding, on the left only. */
const BAR_SIDES = 2;
/** A request's summary wraps to this many lines (the last one cut if it must). */
const SUMMARY_LINES = 2;

/**
 * The lines of one request for a box `width` columns wide: the summary in two lines, then the
 * curl line whole, cut into lines with every character kept (read off the screen, they join back
 * exactly). The curl line carries the method, the path and the body verbatim, so they are shown on
 * their own (cut at the edge) only when it does not: a second copy would take rows 80x23 lacks.
 */
export function requestBoxLines(p: Preview, width: number): { text: string; bold?: boolean }[] {
  const [summary, request, ...rest] = previewLines(p);
  const curl = rest[rest.length - 1];
  const body = rest.length > 1 ? rest[0] : undefined;
  return [
    // What the change does, in two lines at most (issue 47 item 7: cut at one, the review lost its end).
    ...wrapText(summary, width, SUMMARY_LINES).map((text) => ({ text, bold: true })),
    ...(curl.includes(p.method) && curl.includes(p.path) ? [] : [{ text: request }]),
    ...(body !== undefined && !curl.includes(body) ? [{ text: body }] : []),
    ...cutLines(curl, width).map((text) => ({ text })),
  ];
}

/**
 * The lines that fit in `rows`: all of them, or the first ones and a last line that says how many
 * are left out and `whole`, how to get them whole (Ink would drop them without a word). With
 * `width`, that line is wrapped into rows of its own, each counted.
 */
export function fittedLines<L extends { text: string }>(
  lines: L[],
  rows: number,
  whole: string,
  width = Infinity,
): (L | { text: string; dim: true; bold?: undefined })[] {
  if (lines.length <= rows) return lines;
  const said = (left: number) => wrapText(`… ${left} more line${left === 1 ? '' : 's'} not shown: ${whole}`, width);
  const kept = Math.max(0, rows - said(lines.length).length);
  return [...lines.slice(0, kept), ...said(lines.length - kept).map((text) => ({ text, dim: true as const }))];
}

/** What a fitted request's last line says (fittedLines' `whole`). */
const copiesWhole = (copyKey: string) => `${copyKey} copies the request whole as curl`;

/** The key that copies a preview's curl line, as hints write it. */
function useCopyKey(): string {
  const keymap = useKeymap();
  return keyLabel(keymap.find((c) => c.id === 'dialog.copy')?.keys[0] ?? '');
}

/** The lines inside RequestPreview's box at `columns` (see RequestPreview). */
function previewBoxLines(previews: Preview[], columns: number, whole: boolean): { text: string; bold?: boolean }[] {
  const width = Math.max(1, columns - BOX_SIDES);
  return previews.length === 1 || whole
    ? previews.flatMap((p) => requestBoxLines(p, width))
    : previews.flatMap((p) => previewLines(p).map((text, j) => ({ text, bold: j === 0 })));
}

/** The rows RequestPreview takes at `columns` with no room given: its lines and its two borders. */
export function requestPreviewRows(previews: Preview[], columns: number, whole = false): number {
  return previewBoxLines(previews, columns, whole).length + 2;
}

/**
 * Each request in a box. One request, or `whole` (the review's curl key): each curl line whole
 * (wrapped, copyable). Otherwise, two or more (a change and its template): a line each, cut at the
 * edge, as 80x23 has no rows for more beside the review. `room`: the rows the box may take,
 * borders included (fittedLines beyond that).
 */
export function RequestPreview({ previews, whole = false, room }: { previews: Preview[]; whole?: boolean; room?: number }) {
  const { columns } = useTerminalSize();
  const copy = useCopyKey();
  useShownCurl(previews);
  const all = previewBoxLines(previews, columns, whole);
  const lines: { text: string; bold?: boolean; dim?: boolean }[] = room === undefined ? all : fittedLines(all, room - 2, copiesWhole(copy));
  // A labelled profile's requests are drawn in its colour (the label itself starts the first line, NO_COLOR or not).
  return (
    <Box flexDirection="column" borderStyle="single" borderColor={colourOf(previews[0]?.badge?.colour)} paddingX={1}>
      {lines.map((l, i) => (
        <Text key={i} bold={l.bold} dimColor={l.dim} wrap="truncate-end">
          {l.text}
        </Text>
      ))}
    </Box>
  );
}

/** The bar's lines (RequestPreviewBar) at `columns`, with no room given. */
function barLines(preview: Preview, columns: number): { text: string; bold?: boolean }[] {
  return requestBoxLines(preview, Math.max(1, columns - BAR_SIDES));
}

/** The rows RequestPreviewBar takes at `columns` with no room given. */
export function requestPreviewBarRows(preview: Preview, columns: number): number {
  return barLines(preview, columns).length;
}

/**
 * One request in the space 80x23 leaves beside a review: a bar on the left instead of a box,
 * with the same lines as the box (requestBoxLines): the curl line whole, cut at the bar's width;
 * in `room` rows when given (fittedLines).
 */
export function RequestPreviewBar({ preview, room }: { preview: Preview; room?: number }) {
  const { columns } = useTerminalSize();
  const copy = useCopyKey();
  useShownCurl([preview]);
  const all = barLines(preview, columns);
  const lines: { text: string; bold?: boolean; dim?: boolean }[] = room === undefined ? all : fittedLines(all, room, copiesWhole(copy));
  return (
    <Box
      flexDirection="column"
      borderStyle="single"
      borderColor={colourOf(preview.badge?.colour)}
      borderTop={false}
      borderBottom={false}
      borderRight={false}
      paddingLeft={1}
    >
      {lines.map((l, i) => (
        <Text key={i} bold={l.bold} dimColor={l.dim} wrap="truncate-end">
          {l.text}
        </Text>
      ))}
    </Box>
  );
}
