// Templates: every index template and component template, what composes what, and the shards and
// replicas a new index would get from each index template. `P` shows the platform's
// topic.elasticsearch.index-templates-settings value derived from the live templates, `c` the
// requests as curl lines; X (a wizard) adds a component template that disables a field.
import React, { useMemo } from 'react';
import { Box } from 'ink';
import { templateDetails, templateLines, templateSearchText, TEMPLATE_COLUMNS, TEMPLATE_SORT_KEYS } from '../../domain/panes/templates';
import { parseTemplates, platformJsonLines, platformTemplatesSettings, PLATFORM_TEMPLATES_KEY } from '../../domain/templates';
import { PANE_SPECS } from '../../store/panes';
import { useConsole, useUi } from '../app/context';
import { DataTable } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { useCurlLines } from './curl';
import { FullNameLine, useCutNames, useSelected, useTableKeys, useTableModel, DetailLines, WrappedLines } from './table';

const templateKey = (r: { key: string }) => r.key;

export function TemplatesPane({ width, height }: { width: number; height: number }) {
  const { index, components } = useConsole((s) => ({ index: s.snapshots.indexTemplates, components: s.snapshots.componentTemplates }));
  const { showCurl, showPlatformJson } = useUi((s) => ({ showCurl: s.showCurl, showPlatformJson: s.showPlatformJson }));
  const view = useMemo(
    () => (index.data && components.data ? parseTemplates(index.data, components.data) : undefined),
    [index.data, components.data],
  );
  const lines = useMemo(() => (view ? templateLines(view) : undefined), [view]);
  const platform = useMemo(() => (view ? platformJsonLines(platformTemplatesSettings(view)) : []), [view]);
  const snaps = [index, components];
  const body = bodyHeight(height, snaps);
  // The details take 3-4 lines; the JSON and curl lines as many as they need, up to half.
  const want = showCurl || showPlatformJson ? Math.max(6, Math.floor(body / 2)) : 4;
  const cut = useCutNames(lines, TEMPLATE_COLUMNS, width);
  const full = cut.length ? 1 : 0;
  const room = Math.max(0, Math.min(want, body - 2 - full - Math.min(lines?.length ?? 1, body - 2 - want)));
  const rowsHigh = Math.max(1, body - 1 - full - (room ? room + 1 : 0));
  const model = useTableModel('templates', lines, TEMPLATE_SORT_KEYS, templateSearchText, templateKey, rowsHigh);
  useTableKeys('templates', 'templates', model, TEMPLATE_SORT_KEYS.length, {
    'templates.curl': 'showCurl',
    'templates.platformJson': 'showPlatformJson',
  });
  const sel = model.rows[model.cursor];
  useSelected('templates', sel ? { template: sel.name, kind: sel.kind } : undefined);
  const curl = useCurlLines(
    ['indexTemplates', 'componentTemplates'],
    sel ? [{ path: `/${sel.kind === 'index' ? '_index_template' : '_component_template'}/${encodeURIComponent(sel.name)}` }] : [],
  );
  const nIndex = view?.index.length ?? 0;
  const info = view ? `${nIndex} index · ${view.components.length} component · P platform JSON · c curl` : '';
  let below: React.ReactNode = null;
  if (room && showCurl) below = <WrappedLines lines={curl} room={room} width={width} />;
  else if (room && showPlatformJson)
    below = <WrappedLines lines={[`${PLATFORM_TEMPLATES_KEY} (from the live templates):`, ...platform]} room={room} width={width} />;
  else if (sel) below = <DetailLines lines={templateDetails(sel)} width={width} room={room} />;
  return (
    <PaneFrame title={PANE_SPECS.templates.title} info={info} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        <DataTable {...model} columns={TEMPLATE_COLUMNS} height={rowsHigh} width={width} empty={view ? 'no templates' : ''} />
        <FullNameLine row={sel} cut={cut} width={width} />
        {below}
      </Box>
    </PaneFrame>
  );
}
