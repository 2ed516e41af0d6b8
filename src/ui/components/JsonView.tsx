// A coloured, foldable JSON viewer that draws only the lines on screen (domain/console/json-view.ts):
// flattening runs once per value, folding once per fold, and a frame renders `height` lines cut
// to the width, so a 5 MB document scrolls like a small one. Written here rather than taken from
// a library: the Ink 6 JSON viewers found render the whole tree every frame (see the dependency
// notes of docs/DEVELOPMENT.md). Keys: the table keys scroll, the json scope folds (keys/keymap.ts).
import React, { useMemo, useState } from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { containerOf, foldAll, jsonCopyTarget, jsonLines, linePieces, visibleLines, type JsonLine } from '../../domain/console/json-view';
import { visibleRange } from '../../domain/text/table';
import { navList } from '../../domain/console/list-nav';
import { useListNav } from '../input/use-list-nav';
import type { CommandId } from '../../keys/keymap';
import { colourOf } from '../theme';

/** Beyond this many lines a document opens as an outline (everything below the top folded). */
export const OUTLINE_ABOVE = 2000;

export interface JsonViewModel {
  lines: readonly JsonLine[];
  visible: readonly number[];
  folded: ReadonlySet<number>;
  cursor: number;
  offset: number;
}

/** The viewer's state for one value, and what its keys do to it. */
export function useJsonView(
  value: unknown,
  height: number,
): JsonViewModel & { command(id: CommandId): boolean; copyTarget(): { path: string; text: string } | undefined } {
  const lines = useMemo(() => jsonLines(value), [value]);
  const [folded, setFolded] = useState<ReadonlySet<number>>(() => (lines.length > OUTLINE_ABOVE ? foldAll(lines) : new Set()));
  const visible = useMemo(() => visibleLines(lines, folded), [lines, folded]);
  // The cursor follows its line through folds (a line's key is its number in the whole document).
  const nav = useListNav(navList(visible, String, height));
  const vp = nav.nav;
  /** Folds or unfolds a container, keeping the cursor on its opening line. */
  const setFold = (open: number, fold: boolean) => {
    const next = new Set(folded);
    if (fold) next.add(open);
    else next.delete(open);
    setFolded(next);
    nav.select(String(open));
  };
  const command = (id: CommandId): boolean => {
    if (nav.move(id)) return true;
    const line = visible[vp.cursor];
    const l = lines[line];
    switch (id) {
      case 'json.toggle':
        if (l?.kind === 'open' && (l.members ?? 0) > 0) setFold(line, !folded.has(line));
        return true;
      case 'json.unfold':
        if (l?.kind === 'open' && folded.has(line)) setFold(line, false);
        return true;
      case 'json.fold': {
        const open =
          l?.kind === 'open' && !folded.has(line) && (l.members ?? 0) > 0 ? line : containerOf(lines, l?.kind === 'open' ? line - 1 : line);
        if (open !== null && open !== undefined && lines[open]?.depth !== undefined) setFold(open, true);
        return true;
      }
      case 'json.foldAll':
        setFolded(foldAll(lines));
        nav.reset();
        return true;
      case 'json.unfoldAll':
        setFolded(new Set());
        nav.reset();
        return true;
      default:
        return false;
    }
  };
  // What y copies: the value of the highlighted line, named by its path.
  const copyTarget = () => jsonCopyTarget(value, lines, visible[nav.current().cursor]);
  return { lines, visible, folded, cursor: vp.cursor, offset: vp.offset, command, copyTarget };
}

export function JsonView({ model, width, height }: { model: JsonViewModel; width: number; height: number }) {
  const { start, end } = visibleRange({ cursor: model.cursor, offset: model.offset }, model.visible.length, height);
  const shown = model.visible.slice(start, end);
  return (
    <Box flexDirection="column">
      {shown.map((at, i) => (
        <Text key={at} inverse={start + i === model.cursor} wrap="truncate">
          {linePieces(model.lines[at], model.folded.has(at), width).map((p, j) => (
            <Text key={j} color={colourOf(p.tone)} bold={p.bold}>
              {p.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
