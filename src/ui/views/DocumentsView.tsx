// Documents of one index (v on an Indices row): a query line (an id, the seed's queries, a typed
// JSON body or a file, checked before anything is sent, errors with line and column), the hits
// with their total (read a page at a time as the cursor reaches the end), a hit or a document as
// foldable JSON, and the request as the curl line on a key. Reads only, so it works read-only too.
// The session is the one shardeck get / search drive (services/documents.ts).
import React, { useMemo, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { hitRow, pageText, type HitRow } from '../../domain/inspect/documents';
import type { Column } from '../../domain/text/table';
import { fitText } from '../../domain/text/table';
import { navList } from '../../domain/console/list-nav';
import { useListNav } from '../input/use-list-nav';
import { DOCS_FORM_HINTS, DOCS_FORM_LABELS, type DocsState } from '../../domain/wizards/documents';
import { keyLabel, type CommandId, type Scope } from '../../keys/keymap';
import type { WizardServices } from '../../services/wizards';
import { useKeymap } from '../app/use-keymap';
import { DataTable } from '../components/DataTable';
import { JsonView, useJsonView } from '../components/JsonView';
import { useHabits } from '../app/habits';
import { LineInput } from '../components/LineInput';
import { commandFor, lineEditOf } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { colourOf } from '../theme';
import { useSession } from '../wizards/services';

const COLUMNS: Column<HitRow>[] = [
  { title: '_id', width: 24, text: (r) => r.id },
  { title: 'modified_at', width: 24, text: (r) => r.modifiedAt },
  { title: 'assoc:sources', width: 16, text: (r) => r.sources },
  { title: 'fields', width: null, text: (r) => r.fields },
];

/** Lines above the body: the query line and the status or error line; the curl line (wrapped) adds CURL_LINES. */
const HEAD_LINES = 2;
const CURL_LINES = 3;

/** What a key does, in the few words the hint line has room for. */
const HINT_WORDS: Partial<Record<CommandId, string>> = {
  'documents.find': 'find',
  'documents.kind': 'kind',
  'documents.curl': 'curl',
  'documents.back': 'back',
  'json.toggle': 'fold',
  'json.copy': 'copy',
  'json.foldAll': 'fold all',
  'json.unfoldAll': 'unfold all',
};

type Session = ReturnType<WizardServices['documents']>;

export function DocumentsView({
  services,
  index,
  width,
  height,
  onClose,
}: {
  services: WizardServices;
  index: string;
  width: number;
  height: number;
  onClose: () => void;
}) {
  const [state, session] = useSession(() => services.documents(index));
  const [showCurl, setShowCurl] = useState(false);
  const curl = showCurl && state.request ? services.curlOf(state.request).curl : undefined;
  // An error gets a second line: the sentence that says what to do must not be cut short.
  const bodyHigh = Math.max(1, height - HEAD_LINES - (state.error ? 1 : 0) - (curl ? CURL_LINES : 0));
  const opened = state.open === 'doc' ? state.doc : state.open !== undefined ? state.hits?.hits[state.open] : undefined;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <QueryLine state={state} width={width} />
      <StatusLine state={state} width={width} />
      {curl ? (
        <Box height={CURL_LINES} width={width} overflow="hidden">
          <Text dimColor>{curl}</Text>
        </Box>
      ) : null}
      {opened ? (
        <JsonPart
          key={`${state.open}-${opened._id}`}
          value={opened}
          session={session}
          width={width}
          height={bodyHigh}
          onCurl={() => setShowCurl((v) => !v)}
        />
      ) : (
        <HitsPart state={state} session={session} width={width} height={bodyHigh} onCurl={() => setShowCurl((v) => !v)} onClose={onClose} />
      )}
    </Box>
  );
}

function QueryLine({ state, width }: { state: DocsState; width: number }) {
  const label = `< ${DOCS_FORM_LABELS[state.form.kind]} > `;
  const room = Math.max(1, width - label.length - 1);
  // The end of a long typed body stays visible while typing.
  const value = state.form.value.length > room - 1 ? `…${state.form.value.slice(-(room - 2))}` : state.form.value;
  return (
    <Text wrap="truncate-end">
      <Text bold={state.editing}>{label}</Text>
      {state.editing ? (
        <LineInput value={value} placeholder={`… (${DOCS_FORM_HINTS[state.form.kind]})`} cursor />
      ) : (
        <Text dimColor>{value}</Text>
      )}
    </Text>
  );
}

function StatusLine({ state, width }: { state: DocsState; width: number }) {
  if (state.error)
    return (
      <Box height={2} width={width} overflow="hidden">
        <Text color={colourOf(state.errorKind === 'not-found' ? 'yellow' : 'red')}>{state.error}</Text>
      </Box>
    );
  if (state.busy) return <Text dimColor>{fitText('reading…', width)}</Text>;
  if (state.doc) return <Text>{fitText(`${state.doc._index} / ${state.doc._id}: found`, width)}</Text>;
  if (state.hits)
    return (
      <Text>
        {fitText(
          `${state.hits.described}: ${pageText(state.hits.from, state.hits.hits.length, state.hits.total)} read (oldest first)`,
          width,
        )}
      </Text>
    );
  return <Text dimColor>{fitText('type an id and Enter, or Tab for the other kinds of search', width)}</Text>;
}

/** The view's keys, resolved in its own scopes first, then the table keys. */
function useViewKeys(scopes: Scope[], handle: (id: CommandId | undefined, name: string, input: string) => boolean): void {
  const keymap = useKeymap();
  useKeyLayer('dialog', (name, input) => handle(commandFor(name, scopes, keymap)?.id, name, input));
}

/** A hit is its index and id (a search over several indices may repeat an id). */
const hitKey = (r: { index: string; id: string }) => `${r.index}/${r.id}`;

function HitsPart({
  state,
  session,
  width,
  height,
  onCurl,
  onClose,
}: {
  state: DocsState;
  session: Session;
  width: number;
  height: number;
  onCurl: () => void;
  onClose: () => void;
}) {
  const hits = state.hits?.hits;
  // Rows are built once per page read, not on every cursor move.
  const rows = useMemo(() => (hits ?? []).map(hitRow), [hits]);
  const tableHigh = Math.max(1, height - 2);
  const nav = useListNav(navList(rows, hitKey, tableHigh));
  const vp = nav.nav;
  const move = (id: CommandId | undefined): boolean => {
    if (!nav.move(id ?? '')) return false;
    // The next page is read as the cursor comes near the end of what was read.
    if (nav.current().cursor >= rows.length - tableHigh) session.send({ type: 'more' });
    return true;
  };
  useViewKeys(['documents', 'list'], (id, name, input) => {
    if (state.editing) {
      if (id === 'documents.kind') return (session.send({ type: 'kind', by: name === 'shift-tab' ? -1 : 1 }), true);
      if (id === 'documents.open') return (session.send({ type: 'submit', now: Date.now() }), nav.reset(), true);
      // The query line is the last step back: Esc closes the view.
      if (id === 'documents.back') return (onClose(), true);
      const edit = lineEditOf(name, input);
      if (edit) return (session.send({ type: 'line', edit }), true);
      return true;
    }
    if (move(id)) return true;
    switch (id) {
      case 'documents.find':
        session.send({ type: 'edit' });
        return true;
      case 'documents.curl':
        onCurl();
        return true;
      case 'documents.open':
        session.send({ type: 'open', at: nav.current().cursor });
        return true;
      case 'documents.back':
        // Back to the query line, the query as it was typed.
        session.send({ type: 'back' });
        return true;
      default:
        return true;
    }
  });
  return (
    <Box flexDirection="column" height={height}>
      <Box height={height - 1} flexDirection="column">
        {hits ? (
          <DataTable
            columns={COLUMNS}
            rows={rows}
            cursor={vp.cursor}
            offset={vp.offset}
            height={tableHigh}
            width={width}
            rowKey={hitKey}
            empty={state.busy ? '' : 'no document matches'}
          />
        ) : null}
      </Box>
      <Hints
        width={width}
        ids={
          state.editing
            ? ['documents.open', 'documents.kind', 'documents.back']
            : ['documents.open', 'documents.find', 'documents.curl', 'documents.back']
        }
        open={state.editing ? 'send' : 'open'}
      />
    </Box>
  );
}

function JsonPart({
  value,
  session,
  width,
  height,
  onCurl,
}: {
  value: unknown;
  session: Session;
  width: number;
  height: number;
  onCurl: () => void;
}) {
  const model = useJsonView(value, height - 1);
  const habits = useHabits();
  useViewKeys(['json', 'documents', 'list'], (id) => {
    if (id === 'documents.back') return (session.send({ type: 'back' }), true);
    if (id === 'json.copy') {
      const t = model.copyTarget();
      return (habits.copy('value', t?.text, { label: t?.path, block: true }), true);
    }
    if (id === 'documents.curl') return (onCurl(), true);
    if (id === 'documents.find') return (session.send({ type: 'edit' }), true);
    if (id) model.command(id);
    return true;
  });
  return (
    <Box flexDirection="column" height={height}>
      <Box height={height - 1} flexDirection="column">
        <JsonView model={model} width={width} height={height - 1} />
      </Box>
      <Hints
        width={width}
        ids={['json.toggle', 'json.copy', 'json.foldAll', 'json.unfoldAll', 'documents.curl', 'documents.back']}
        extra={`${model.cursor + 1}/${model.visible.length}`}
      />
    </Box>
  );
}

function Hints({ ids, width, extra, open }: { ids: CommandId[]; width: number; extra?: string; open?: string }) {
  const keymap = useKeymap();
  const text = ids
    .map((id) => keymap.find((k) => k.id === id))
    .filter((k) => k !== undefined)
    .map((k) => `${k.keys.map(keyLabel).join('/')} ${k.id === 'documents.open' ? (open ?? 'open') : (HINT_WORDS[k.id] ?? k.description)}`)
    .join('  ');
  return <Text dimColor>{fitText(extra ? `${extra}  ${text}` : text, width)}</Text>;
}
