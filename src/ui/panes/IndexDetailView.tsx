// The index detail, over the Indices pane (Enter on a row, Esc back): its platform project, then
// one section at a time (Tab / ← →): stats with rates between polls, every setting flattened
// (searchable), the mapping as a foldable tree (searchable), its shards, and the index template
// that matches it. The data is read outside React (services/index-detail.ts); this only windows
// the section's lines, so a mapping of thousands of fields costs a frame what the screen shows.
import React, { useMemo } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import {
  DETAIL_SECTIONS,
  mappingSectionLines,
  nextSection,
  projectText,
  SECTION_TITLES,
  sectionSearchable,
  sectionSnapshots,
  settingsSectionLines,
  shardsSectionLines,
  statsSectionLines,
  templateSectionLines,
  type DetailLine,
  type IndexDetail,
} from '../../domain/inspect/index-detail';
import { foldablePaths, mappingFields } from '../../domain/inspect/inspect';
import { curlLine } from '../../domain/mutation/preview';
import { filterPrompt, fitText, visibleRange } from '../../domain/text/table';
import { navList, NAV_START } from '../../domain/console/list-nav';
import { cutLines } from '../../domain/text/text';
import { navFields, useStoredListNav } from '../input/use-list-nav';
import { closeIndexDetail } from '../../store/index-detail';
import { useConsole, useConsoleContext, useUi } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { useHabits } from '../app/habits';
import { emptyDetailView, type DetailView } from '../state';
import { colourOf } from '../theme';
import { openDocumentsView } from './documents-hook';

const CURL_LINES = 3;
const lineKey = (l: { key: string }) => l.key;

/** The lines of the section on screen (the mapping's rows are built once per mapping by the caller). */
export function sectionLines(
  d: IndexDetail,
  view: DetailView,
  fields: ReturnType<typeof mappingFields>,
  folded: ReadonlySet<string>,
): DetailLine[] {
  switch (view.section) {
    case 'stats':
      return statsSectionLines(d);
    case 'settings':
      return settingsSectionLines(d, view.filter);
    case 'mappings':
      return d.mappings.data === undefined ? [] : mappingSectionLines(d.mappings.data, fields, folded, view.filter);
    case 'shards':
      return shardsSectionLines(d);
    case 'template':
      return templateSectionLines(d);
  }
}

export function IndexDetailView({ width, height }: { width: number; height: number }) {
  const ctx = useConsoleContext();
  const { store, ui } = ctx;
  const keymap = useKeymap();
  const habits = useHabits();
  const { detail, projects, templateVersion, connection } = useConsole((s) => ({
    detail: s.indexDetail!,
    projects: s.projects,
    templateVersion: s.templateVersion,
    connection: s.connection,
  }));
  const view = useUi((s) => s.detail);
  const fields = useMemo(() => mappingFields(detail.mappings.data), [detail.mappings.data]);
  const folded = useMemo(() => new Set(view.folded), [view.folded]);
  const lines = useMemo(() => sectionLines(detail, view, fields, folded), [detail, view.section, view.filter, fields, folded]); // eslint-disable-line react-hooks/exhaustive-deps -- only the view's section and filter change the lines

  const snaps = sectionSnapshots(detail, view.section);
  const request = detail.requests?.[view.section];
  const curl =
    view.curl && request
      ? cutLines(
          `${request.method} ${request.path}: ${curlLine(request, { url: connection.url, user: connection.user, insecure: connection.insecure })}`,
          width,
          CURL_LINES,
        )
      : [];
  const searchShown = view.searching || view.filter !== '';
  const rowsHigh = Math.max(1, bodyHeight(height, snaps) - 1 - (searchShown ? 1 : 0) - curl.length - (view.note ? 1 : 0));
  const patch = (p: Partial<DetailView>) => ui.setState((s) => ({ detail: { ...s.detail, ...p } }));
  // The cursor follows its line (a field folded or unfolded above it keeps it on that field).
  const nav = useStoredListNav(view, () => ui.getState().detail, patch, navList(lines, lineKey, rowsHigh));
  const vp = nav.nav;
  const { start, end } = visibleRange(vp, lines.length, rowsHigh);

  useKeyLayer('pane', (name) => {
    const cmd = commandFor(name, ['detail', 'list'], keymap);
    if (!cmd) return false;
    if (nav.move(cmd.id)) return true;
    switch (cmd.id) {
      case 'detail.back':
        if (view.filter) patch({ filter: '', ...navFields(NAV_START) });
        else {
          closeIndexDetail(store);
          ui.setState({ detail: emptyDetailView() });
        }
        return true;
      case 'detail.nextSection':
      case 'detail.prevSection':
        patch({
          section: nextSection(view.section, cmd.id === 'detail.nextSection' ? 1 : -1),
          ...navFields(NAV_START),
          filter: '',
          note: undefined,
        });
        return true;
      case 'detail.search':
        if (sectionSearchable(view.section)) patch({ searching: true, note: undefined });
        else patch({ note: 'search works in Settings and Mappings (Tab to them)' });
        return true;
      case 'detail.fold': {
        const path = lines[vp.cursor]?.fold;
        if (view.section !== 'mappings' || !path) return true;
        patch({ folded: folded.has(path) ? view.folded.filter((p) => p !== path) : [...view.folded, path] });
        return true;
      }
      case 'detail.foldAll':
        if (view.section === 'mappings') patch({ folded: view.folded.length ? [] : foldablePaths(fields), ...navFields(NAV_START) });
        return true;
      case 'detail.curl':
        patch({ curl: !view.curl });
        return true;
      case 'detail.copy': {
        // A setting's value or a field's path; on the other sections the index name (the global y).
        const line = lines[vp.cursor];
        if (!line?.copy) return false;
        habits.copy('value', line.copy.text, { label: line.copy.path });
        return true;
      }
      case 'detail.documents':
        patch({ note: openDocumentsView(ctx, detail.index) });
        return true;
      default:
        return false;
    }
  });

  // The search prompt takes every key while open: Enter keeps the search, Esc clears it.
  useKeyLayer(
    'filter',
    (name, input) => {
      const cur = ui.getState().detail.filter;
      if (name === 'return') patch({ searching: false });
      else if (name === 'escape') patch({ searching: false, filter: '', ...navFields(NAV_START) });
      else if (name === 'backspace') patch({ filter: cur.slice(0, -1), ...navFields(NAV_START) });
      // eslint-disable-next-line no-control-regex -- a control character is a key, never filter text
      else if (input.length >= 1 && !/[\x00-\x1f]/.test(input)) patch({ filter: cur + input, ...navFields(NAV_START) });
      return true;
    },
    view.searching,
  );

  const loading = snaps.every((s) => s.data === undefined) && !snaps.some((s) => s.error);
  const tabs = DETAIL_SECTIONS.map((s) => (s === view.section ? `[${SECTION_TITLES[s]}]` : ` ${SECTION_TITLES[s]} `)).join(' ');
  const info = `project: ${projectText(detail.index, projects, templateVersion)}`;
  return (
    <PaneFrame title={`Index ${detail.index}`} info={info} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        <Text bold>{fitText(tabs, width)}</Text>
        {searchShown ? <Text inverse={view.searching}>{fitText(filterPrompt(view.searching, view.filter), width)}</Text> : null}
        {lines.length === 0 ? (
          <Text dimColor>{loading ? 'loading…' : view.filter ? `nothing matches "${view.filter}"` : 'nothing to show'}</Text>
        ) : (
          lines.slice(start, end).map((l, i) => (
            <Text key={l.key} inverse={start + i === vp.cursor} dimColor={l.dim} color={colourOf(l.tone)} wrap="truncate">
              {fitText(l.text, width)}
            </Text>
          ))
        )}
        {curl.map((c, i) => (
          <Text key={`curl${i}`} color={colourOf('gray')}>
            {c}
          </Text>
        ))}
        {view.note ? <Text color={colourOf('yellow')}>{fitText(view.note, width)}</Text> : null}
      </Box>
    </PaneFrame>
  );
}
