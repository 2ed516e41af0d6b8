// Delete wizard: renders the machine of domain/wizards/delete.ts and sends the operator's keys to
// it. The target defaults to the Indices pane's selected row; the platform project behind it is
// shown when the console knows the projects. After a delete that removed documents, m hands over
// to the force merge of the same target (ForceMergeWizard.tsx).
// Laid out for 80x24 (18 lines under the title): one line per fact, long lines truncated.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { matchShare } from '../../domain/delete/plan';
import { progressLine, type TaskProgress } from '../../domain/delete/task';
import { formatCount, formatPercent, type Tone } from '../../domain/text/format';
import {
  choiceOf,
  conflictsLine,
  DELETE_FIELDS,
  QUERY_KIND_LABELS,
  type DeleteField,
  type DeleteForm,
  type DeleteState,
  type RunningTask,
  type SampleDoc,
} from '../../domain/wizards/delete';
import type { WizardServices } from '../../services/wizards';
import { deleteWizard } from '../../services/wizards/delete';
import { Bar } from '../components/Bar';
import { LineInput } from '../components/LineInput';
import { RequestPreviewBar, requestPreviewBarRows } from '../components/RequestPreview';
import { useTerminalSize } from '../app/terminal';
import { wrapText } from '../../domain/text/text';
import { TypedConfirm } from '../components/TypedConfirm';
import { colourOf } from '../theme';
import { formKeys, useDialogKeys, useHint, useKeyLabel } from './dialog-keys';
import { ForceMergeView } from './ForceMergeWizard';
import { FormRow } from './FormRow';
import { useSession, withServices } from './services';
import { useIndicesTarget } from './marked-target';
import { ProjectNote, TargetLine } from './TargetLine';
import { SnapshotFirstLine, SnapshotFirstScreen, useSnapshotFirst } from './SnapshotFirst';
import { Cancelled, CLOSES, Hint, WIZARD_ROWS_AROUND } from './wizard-text';

const VALUE_LABEL: Record<DeleteForm['kind'], string> = {
  olderThan: 'age or date',
  until: 'timestamp',
  source: 'source id',
  file: 'file path',
};
const VALUE_HINT: Record<DeleteForm['kind'], string> = {
  olderThan: '90d, 12w, 36h or 2025-01-31',
  until: '2025-01-31T12:00:00Z or 2025-01-31 (inclusive)',
  source: 'e.g. src-crm',
  file: 'a JSON body with "query"',
};

export const DeleteWizard = withServices(function DeleteFromSelection({
  onClose,
  services,
}: {
  onClose: () => void;
  services: WizardServices;
}) {
  // The marked indices, each named, else the highlighted one.
  return <DeleteView services={services} initial={{ target: useIndicesTarget() }} onClose={onClose} />;
});

/** The delete wizard; after a delete that removed documents, m hands over to the force merge of the same target. */
export function DeleteView({
  services,
  initial,
  onClose,
}: {
  services: WizardServices;
  initial: Partial<DeleteForm>;
  onClose: () => void;
}) {
  const [mergeTarget, setMergeTarget] = React.useState<string | null>(null);
  if (mergeTarget !== null) return <ForceMergeView services={services} target={mergeTarget} start onClose={onClose} />;
  return <DeleteSteps services={services} initial={initial} onClose={onClose} onMerge={setMergeTarget} />;
}

function DeleteSteps({
  services,
  initial,
  onClose,
  onMerge,
}: {
  services: WizardServices;
  initial: Partial<DeleteForm>;
  onClose: () => void;
  onMerge: (t: string) => void;
}) {
  const [state, session] = useSession(() => services.open(deleteWizard, initial));
  const send = session.send;
  const first = useSnapshotFirst(services, 'delete');
  useDialogKeys(session, onClose, (key) => {
    if (first.keys(key, state.phase === 'review' ? state.indices : undefined)) return true;
    switch (state.phase) {
      case 'done':
        if (!key.is('delete.mergeNow') || !state.offerMerge) return false;
        onMerge(state.form.target.trim());
        return true;
      case 'input':
        return formKeys(key, send, () => send({ type: 'submit', now: Date.now() }));
      case 'review':
        if (key.is('dialog.submit')) send({ type: 'confirm' });
        else if (key.is('delete.samplesNext')) send({ type: 'page', delta: 1 });
        else if (key.is('delete.samplesPrev')) send({ type: 'page', delta: -1 });
        else if (key.is('delete.conflicts')) send({ type: 'toggleConflicts' });
        else if (key.edit) send({ type: 'line', edit: key.edit });
        else return false;
        return true;
      case 'running':
        if (state.rate !== undefined) {
          if (key.is('dialog.submit')) send({ type: 'rethrottle' });
          else if (key.is('dialog.close')) send({ type: 'editRate', text: undefined });
          else if (key.edit) send({ type: 'line', edit: key.edit });
        } else if (key.is('delete.rethrottle')) send({ type: 'editRate', text: '' });
        else if (key.is('delete.cancelTask')) send({ type: 'cancelTask' });
        // Esc does not close: the task runs on (shardeck tasks re-attaches), and its report comes here.
        return true;
      default:
        return false;
    }
  });

  if (first.blocking) return <SnapshotFirstScreen first={first} change="delete" />;
  const line = first.repository || first.verdict ? <SnapshotFirstLine first={first} what="the indices above" /> : undefined;
  return <DeleteScreen state={state} services={services} snapshotFirst={line} />;
}

/** id · modified_at · sources · title; the id column as wide as the page's longest id (up to 30). */
function sampleLine(s: SampleDoc, idWidth: number): string {
  const id = s.id.length > idWidth ? `${s.id.slice(0, idWidth - 1)}…` : s.id.padEnd(idWidth);
  return `${id} ${(s.modifiedAt ?? '-').slice(0, 19).padEnd(19)} ${(s.sources.join(',') || '-').padEnd(16).slice(0, 16)} ${s.title ?? ''}`;
}

function progressTone(p: TaskProgress | undefined): Tone {
  if (!p) return 'gray';
  if (p.failures.length || p.cancelled) return 'red';
  return p.versionConflicts ? 'yellow' : 'green';
}

function TaskLines({ running, total }: { running: RunningTask; total: number }) {
  const p = running.progress;
  const deleted = p?.deleted ?? 0;
  const pct = total > 0 ? (deleted / total) * 100 : 0;
  return (
    <>
      {/* Wrapped, never cut: the command is to be copied whole (issue 47 item 7). */}
      <Text wrap="wrap">{`task ${running.task} · re-attach any time: shardeck tasks ${running.task}`}</Text>
      <Text>
        <Bar percent={pct} width={40} tone={progressTone(p)} />
        {` ${formatCount(deleted)} / ${formatCount(total)} (${formatPercent(pct)})`}
      </Text>
      <Text wrap="truncate-end" color={colourOf(p?.versionConflicts ? 'yellow' : undefined)}>
        {p ? progressLine(p).replace(/^deleted [^·]*· /, '') : 'waiting for the first status…'}
      </Text>
      {running.cancelRequested ? <Text color={colourOf('yellow')}>cancel sent: the task stops at its next batch</Text> : null}
      {running.control ? (
        <Text wrap="wrap" color={colourOf(running.control.ok ? 'green' : 'red')}>
          {running.control.message}
        </Text>
      ) : null}
    </>
  );
}

export function DeleteScreen({
  state,
  services,
  snapshotFirst,
}: {
  state: DeleteState;
  services: WizardServices;
  /** The review's "snapshot first" line (SnapshotFirst.tsx). */
  snapshotFirst?: React.ReactNode;
}) {
  const hint = useHint();
  const label = useKeyLabel();
  const { rows, columns } = useTerminalSize();
  switch (state.phase) {
    case 'input': {
      const f = state.form;
      // eslint-disable-next-line react-hooks/purity -- what the typed age means as of this keystroke's render
      const c = f.value.trim() ? choiceOf(f, Date.now()) : null;
      const resolved =
        c && c.ok === true && c.value.resolvedOlderThan
          ? `= modified_at before ${c.value.resolvedOlderThan}`
          : c && c.ok === true && c.value.resolvedUntil
            ? `= modified_at up to ${c.value.resolvedUntil}`
            : '';
      const rows: Record<DeleteField, [string, React.ReactNode]> = {
        target: ['index', <LineInput value={f.target} placeholder="…" />],
        kind: ['which documents', `< ${QUERY_KIND_LABELS[f.kind]} >`],
        value: [VALUE_LABEL[f.kind], <LineInput value={f.value} placeholder={`… (${VALUE_HINT[f.kind]})`} />],
        conflicts: ['on conflicts', f.conflicts === 'abort' ? '< abort >' : '< proceed >'],
        rate: ['throttle', f.rate ? `${f.rate} docs/s` : '… (docs per second; empty = none)'],
      };
      return (
        <Box flexDirection="column">
          {DELETE_FIELDS.map((k) => (
            <FormRow key={k} label={rows[k][0]} width={16} focused={state.focus === k}>
              {rows[k][1]}
            </FormRow>
          ))}
          <ProjectNote target={f.target} />
          {resolved ? <Text color={colourOf('yellow')}>{resolved}</Text> : null}
          <Text dimColor wrap="truncate-end">
            {conflictsLine(f.conflicts)}
          </Text>
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>
            {hint(
              'type to edit',
              ['dialog.nextField', 'next field'],
              ['dialog.change', 'changes a choice'],
              ['dialog.submit', 'preview'],
              ['dialog.close', 'close'],
            )}
          </Hint>
        </Box>
      );
    }
    case 'reading':
    case 'previewing':
      return (
        <Text>
          {state.phase === 'reading' ? `reading ${state.form.value}…` : `counting and sampling what ${state.form.target} matches…`}
        </Text>
      );
    case 'nothing':
      return (
        <Box flexDirection="column">
          <TargetLine target={state.form.target} indices={state.indices} />
          <Text wrap="truncate-end">{`which: ${state.choice.described}`}</Text>
          <Text
            color={colourOf('green')}
          >{`nothing to do: no document of ${formatCount(state.indexTotal)} matches; nothing was sent`}</Text>
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    case 'review': {
      const { preview, from } = state;
      const request = services.preview(state.plan);
      // Target, which, the count, the typed line, an error and the keys: a row each.
      const fixed = 6 + (snapshotFirst ? 1 : 0) + wrapText(conflictsLine(state.form.conflicts), columns).length;
      // The review fits the wizard's rows: its curl line is whole (the bar), so a long one takes
      // sample rows, not the typed line or the keys, and one taller than what a sample leaves says
      // what it leaves out.
      const requestRoom = Math.max(1, rows - WIZARD_ROWS_AROUND - fixed - 1);
      const requestLines = requestPreviewBarRows(request, columns);
      const requestRows = requestLines < requestRoom ? requestLines : requestRoom;
      const samples = preview.samples.slice(0, Math.max(1, rows - WIZARD_ROWS_AROUND - fixed - requestRows));
      const last = Math.min(from + samples.length, preview.matching);
      return (
        <Box flexDirection="column">
          <TargetLine target={state.form.target} indices={state.indices} />
          <Text wrap="truncate-end">{`which: ${state.choice.described}`}</Text>
          <Text wrap="truncate-end">
            <Text color={colourOf('yellow')} bold>
              {`${formatCount(preview.matching)} of ${formatCount(preview.indexTotal)} documents match (${formatPercent(matchShare(preview.matching, preview.indexTotal), 1)})`}
            </Text>
            {` · samples ${from + 1}-${last}, oldest first (${label('delete.samplesPrev')}/${label('delete.samplesNext')})${state.pending !== undefined ? ' …' : ''}`}
          </Text>
          {samples.map((s) => (
            <Text key={`${s.index}/${s.id}`} wrap="truncate-end">
              {sampleLine(s, Math.min(30, Math.max(...samples.map((x) => x.id.length))))}
            </Text>
          ))}
          <Text dimColor wrap="wrap">
            {conflictsLine(state.form.conflicts)}
          </Text>
          <RequestPreviewBar preview={request} room={requestRoom} />
          {snapshotFirst}
          <TypedConfirm prompt={`type ${preview.matching} to delete them: `} typed={state.typed} />
          {state.error ? (
            <Text color={colourOf('red')} wrap="truncate-end">
              {state.error}
            </Text>
          ) : null}
          <Hint>
            {hint(
              ['dialog.submit', 'delete'],
              ['delete.conflicts', 'conflicts policy'],
              ['dialog.erase', 'edit'],
              ['dialog.close', 'close (nothing sent)'],
            )}
          </Hint>
        </Box>
      );
    }
    case 'starting':
      return <Text>{`sending the delete of at most ${formatCount(state.preview.matching)} documents…`}</Text>;
    case 'running':
    case 'counting':
      return (
        <Box flexDirection="column">
          <TargetLine target={state.form.target} />
          <TaskLines running={state} total={state.preview.matching} />
          {state.phase === 'counting' ? (
            <Text>counting what the query still matches…</Text>
          ) : state.rate !== undefined ? (
            <Text>
              {'requests per second (-1 = no throttle): '}
              <LineInput value={state.rate} cursor />
              {`   ${hint(['dialog.submit', 'send'], ['dialog.close', 'back'])}`}
            </Text>
          ) : (
            <Hint>
              {hint(
                ['delete.rethrottle', 'rethrottle'],
                ['delete.cancelTask', 'cancel the task'],
                'the task runs on if the console closes',
              )}
            </Hint>
          )}
        </Box>
      );
    case 'done': {
      const { report } = state;
      return (
        <Box flexDirection="column">
          <TargetLine target={state.form.target} />
          <TaskLines running={state} total={state.preview.matching} />
          {report.lines.map((l, i) => (
            <Text key={i} wrap="wrap" color={colourOf(i === 0 ? (report.ok ? 'green' : 'red') : undefined)}>
              {i === 0 ? `${report.ok ? 'ok' : 'FAILED'}: ${l}` : `  ${l}`}
            </Text>
          ))}
          <Hint>{state.offerMerge ? hint(['delete.mergeNow', 'force merge now to free the disk'], 'any other key closes') : CLOSES}</Hint>
        </Box>
      );
    }
    case 'failed':
      return (
        <Box flexDirection="column">
          <Text color={colourOf('red')}>{state.message}</Text>
          {state.last ? <Text wrap="truncate-end">{`last seen: ${progressLine(state.last)}`}</Text> : null}
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    case 'cancelled':
      return <Cancelled />;
  }
}
