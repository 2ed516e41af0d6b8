// Delete wizard and force-merge wizard: render the machines of domain/wizards/delete.ts and
// forcemerge.ts and send the operator's keys to them. The target defaults to the Indices pane's
// selected row; the platform project behind it is shown when the console knows the projects.
// Laid out for 80x24 (18 lines under the title): one line per fact, long lines truncated.
import React from 'react';
import { Box, Text } from 'ink';
import { matchShare } from '../../domain/delete/plan';
import { progressLine, type TaskProgress } from '../../domain/delete/task';
import { formatCount, formatPercent, type Tone } from '../../domain/format';
import { describeMatch, previewLines, type Preview } from '../../domain/mutation';
import {
  choiceOf,
  conflictsLine,
  projectOfTarget,
  QUERY_KIND_LABELS,
  type DeleteEvent,
  type DeleteForm,
  type DeleteState,
  type RunningTask,
  type SampleDoc,
} from '../../domain/wizards/delete';
import { mergeDiskLines, mergeIndexLines, type FactLine, type MergeState } from '../../domain/wizards/forcemerge';
import type { WizardServices } from '../../services/wizards';
import { useConsole, useUi } from '../app/context';
import { Bar } from '../components/Bar';
import { useKeyLayer } from '../input/router';
import { colourOf } from '../theme';
import { Hint, Notes } from './parts';
import { useSession, withServices } from './services';

type Field = 'target' | 'kind' | 'value' | 'conflicts' | 'rate';
const FIELDS: Field[] = ['target', 'kind', 'value', 'conflicts', 'rate'];
const VALUE_LABEL: Record<DeleteForm['kind'], string> = { olderThan: 'age or date', source: 'source id', file: 'file path' };
const VALUE_HINT: Record<DeleteForm['kind'], string> = { olderThan: '90d, 12w, 36h or 2025-01-31', source: 'e.g. src-crm', file: 'a JSON body with "query"' };

function useProject(target: string): string | undefined {
  const { projects, templateVersion } = useConsole((s) => ({ projects: s.projects, templateVersion: s.templateVersion }));
  return projectOfTarget(target, projects, templateVersion);
}

export const DeleteWizard = withServices(function DeleteFromSelection({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const selected = useUi((s) => s.selection.indices?.index);
  return <DeleteView services={services} initial={{ target: selected ?? '' }} onClose={onClose} />;
});

export const ForceMergeWizard = withServices(function ForceMergeFromSelection({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const selected = useUi((s) => s.selection.indices?.index);
  return <ForceMergeView services={services} target={selected ?? ''} onClose={onClose} />;
});

/** The delete wizard; after a delete that removed documents, m hands over to the force merge of the same target. */
export function DeleteView({ services, initial, onClose }: { services: WizardServices; initial: Partial<DeleteForm>; onClose: () => void }) {
  const [mergeTarget, setMergeTarget] = React.useState<string | null>(null);
  if (mergeTarget !== null) return <ForceMergeView services={services} target={mergeTarget} start onClose={onClose} />;
  return <DeleteSteps services={services} initial={initial} onClose={onClose} onMerge={setMergeTarget} />;
}

function DeleteSteps({ services, initial, onClose, onMerge }: { services: WizardServices; initial: Partial<DeleteForm>; onClose: () => void; onMerge: (t: string) => void }) {
  const [state, session] = useSession(() => services.deleteByQuery(initial));
  const [field, setField] = React.useState<number>(initial.target ? 2 : 0);
  const send = (e: DeleteEvent) => session.send(e);

  useKeyLayer('dialog', (name, input) => {
    switch (state.phase) {
      case 'done':
        if (input === 'm' && state.offerMerge) onMerge(state.form.target.trim());
        else onClose();
        return true;
      case 'nothing':
      case 'failed':
      case 'cancelled':
        onClose();
        return true;
      case 'input': {
        if (name === 'escape') {
          send({ type: 'cancel' });
          onClose();
          return true;
        }
        const f = FIELDS[field];
        if (name === 'return') send({ type: 'submit', now: Date.now() });
        else if (name === 'tab' || name === 'down') setField((field + 1) % FIELDS.length);
        else if (name === 'shift-tab' || name === 'up') setField((field + FIELDS.length - 1) % FIELDS.length);
        else if (f === 'kind') {
          if (input === ' ' || name === 'right' || name === 'left') send({ type: 'nextKind' });
        } else if (f === 'conflicts') {
          if (input === ' ' || name === 'right' || name === 'left') send({ type: 'toggleConflicts' });
        } else if (name === 'backspace') send({ type: 'edit', field: f, value: state.form[f].slice(0, -1) });
        else if (input.length === 1 && input >= ' ') send({ type: 'edit', field: f, value: state.form[f] + input });
        return true;
      }
      case 'review':
        if (name === 'escape') {
          send({ type: 'cancel' });
          onClose();
        } else if (name === 'return') send({ type: 'confirm' });
        else if (name === 'backspace') send(state.typed ? { type: 'typeCount', text: state.typed.slice(0, -1) } : { type: 'back' });
        else if (/^\d$/.test(input)) send({ type: 'typeCount', text: state.typed + input });
        else if (name === 'right' || name === 'pagedown') send({ type: 'page', delta: 1 });
        else if (name === 'left' || name === 'pageup') send({ type: 'page', delta: -1 });
        else if (input === 'c') send({ type: 'toggleConflicts' });
        return true;
      case 'running':
        if (state.rate !== undefined) {
          if (name === 'return') send({ type: 'rethrottle' });
          else if (name === 'escape') send({ type: 'editRate', text: undefined });
          else if (name === 'backspace') send({ type: 'editRate', text: state.rate.slice(0, -1) });
          else if (input.length === 1) send({ type: 'editRate', text: state.rate + input });
        } else if (input === 't') send({ type: 'editRate', text: '' });
        else if (input === 'x') send({ type: 'cancelTask' });
        // Esc does not close: the task runs on (shardeck tasks re-attaches), and its report comes here.
        return true;
      default:
        return true;
    }
  });

  return <DeleteScreen state={state} field={field} services={services} />;
}

function TargetLine({ target, indices }: { target: string; indices?: string[] }) {
  const project = useProject(target);
  const match = indices && (indices.length !== 1 || indices[0] !== target) ? ` · ${describeMatch(indices, 3)}` : '';
  return <Text wrap="truncate-end">{`target ${target}${project ? ` · project ${project}` : ''}${match}`}</Text>;
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
      <Text wrap="truncate-end">{`task ${running.task} · re-attach any time: shardeck tasks ${running.task}`}</Text>
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

export function DeleteScreen({ state, field, services }: { state: DeleteState; field: number; services: WizardServices }) {
  switch (state.phase) {
    case 'input': {
      const f = state.form;
      const c = f.value.trim() ? choiceOf(f, Date.now()) : null;
      const resolved = c && c.ok === true && c.value.resolvedOlderThan ? `= modified_at before ${c.value.resolvedOlderThan}` : '';
      const rows: [Field, string, string][] = [
        ['target', 'index', f.target || '…'],
        ['kind', 'which documents', `< ${QUERY_KIND_LABELS[f.kind]} >`],
        ['value', VALUE_LABEL[f.kind], f.value || `… (${VALUE_HINT[f.kind]})`],
        ['conflicts', 'on conflicts', f.conflicts === 'abort' ? '< abort >' : '< proceed >'],
        ['rate', 'throttle', f.rate ? `${f.rate} docs/s` : '… (docs per second; empty = none)'],
      ];
      return (
        <Box flexDirection="column">
          {rows.map(([k, label, v]) => (
            <Text key={k} inverse={FIELDS[field] === k} wrap="truncate-end">{`${label.padEnd(16)} ${v}`}</Text>
          ))}
          <ProjectNote target={f.target} />
          {resolved ? <Text color={colourOf('yellow')}>{resolved}</Text> : null}
          <Text dimColor wrap="truncate-end">{conflictsLine(f.conflicts)}</Text>
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>type to edit · Tab next field · Space changes a choice · Enter preview · Esc close</Hint>
        </Box>
      );
    }
    case 'reading':
    case 'previewing':
      return <Text>{state.phase === 'reading' ? `reading ${state.form.value}…` : `counting and sampling what ${state.form.target} matches…`}</Text>;
    case 'nothing':
      return (
        <Box flexDirection="column">
          <TargetLine target={state.form.target} indices={state.indices} />
          <Text wrap="truncate-end">{`which: ${state.choice.described}`}</Text>
          <Text color={colourOf('green')}>{`nothing to do: no document of ${formatCount(state.indexTotal)} matches; nothing was sent`}</Text>
          <Hint>any key closes</Hint>
        </Box>
      );
    case 'review': {
      const { preview, from } = state;
      const last = Math.min(from + preview.samples.length, preview.matching);
      return (
        <Box flexDirection="column">
          <TargetLine target={state.form.target} indices={state.indices} />
          <Text wrap="truncate-end">{`which: ${state.choice.described}`}</Text>
          <Text wrap="truncate-end">
            <Text color={colourOf('yellow')} bold>
              {`${formatCount(preview.matching)} of ${formatCount(preview.indexTotal)} documents match (${formatPercent(matchShare(preview.matching, preview.indexTotal), 1)})`}
            </Text>
            {` · samples ${from + 1}-${last}, oldest first (←/→)${state.pending !== undefined ? ' …' : ''}`}
          </Text>
          {preview.samples.map((s) => (
            <Text key={`${s.index}/${s.id}`} wrap="truncate-end">{sampleLine(s, Math.min(30, Math.max(...preview.samples.map((x) => x.id.length))))}</Text>
          ))}
          <Text dimColor wrap="wrap">{conflictsLine(state.form.conflicts)}</Text>
          <RequestLines preview={services.preview(state.plan)} />
          <Text>
            {`type ${preview.matching} to delete them: `}
            <Text bold color={colourOf('red')}>{state.typed}</Text>
            {'_'}
          </Text>
          {state.error ? <Text color={colourOf('red')} wrap="truncate-end">{state.error}</Text> : null}
          <Hint>Enter delete · c conflicts policy · Backspace edit · Esc close (nothing sent)</Hint>
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
            <Text>{`requests per second (-1 = no throttle): ${state.rate}_   Enter send · Esc back`}</Text>
          ) : (
            <Hint>t rethrottle · x cancel the task · the task runs on if the console closes</Hint>
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
          <Hint>{state.offerMerge ? 'm force merge now to free the disk · any other key closes' : 'any key closes'}</Hint>
        </Box>
      );
    }
    case 'failed':
      return (
        <Box flexDirection="column">
          <Text color={colourOf('red')}>{state.message}</Text>
          {state.last ? <Text wrap="truncate-end">{`last seen: ${progressLine(state.last)}`}</Text> : null}
          <Hint>any key closes</Hint>
        </Box>
      );
    case 'cancelled':
      return <Text>cancelled: nothing was sent</Text>;
  }
}

/**
 * The request about to be sent, in the space 80x24 leaves: a bar on the left instead of a box;
 * method and path wrap (every parameter visible), the body starts with max_docs, curl is cut.
 */
function RequestLines({ preview }: { preview: Preview }) {
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

function ProjectNote({ target }: { target: string }) {
  const project = useProject(target);
  return project ? <Text dimColor>{`platform project: ${project}`}</Text> : null;
}

function Facts({ lines }: { lines: FactLine[] }) {
  return (
    <>
      {lines.map((l) => (
        <Text key={l.text} wrap="truncate-end" color={colourOf(l.tone)}>
          {l.text}
        </Text>
      ))}
    </>
  );
}

/** The force-merge wizard; `start` inspects the given target at once (handed over by the delete wizard). */
export function ForceMergeView({ services, target, start = false, onClose }: { services: WizardServices; target: string; start?: boolean; onClose: () => void }) {
  const [state, session] = useSession(() => services.forcemerge(target, start));
  useKeyLayer('dialog', (name, input) => {
    if (state.phase === 'done' || state.phase === 'failed' || state.phase === 'cancelled') {
      onClose();
      return true;
    }
    if (name === 'escape') {
      session.send({ type: 'cancel' });
      if (state.phase !== 'applying') onClose();
      return true;
    }
    if (state.phase === 'input') {
      if (name === 'return') session.send({ type: 'submit' });
      else if (name === 'backspace') session.send({ type: 'edit', value: state.target.slice(0, -1) });
      else if (input.length === 1 && input >= ' ') session.send({ type: 'edit', value: state.target + input });
    } else if (state.phase === 'review' && input === 'y' && !state.refuse) session.send({ type: 'confirm', confirmation: { by: 'key' } });
    return true;
  });
  return <ForceMergeScreen state={state} services={services} />;
}

export function ForceMergeScreen({ state, services }: { state: MergeState; services: WizardServices }) {
  switch (state.phase) {
    case 'input':
      return (
        <Box flexDirection="column">
          <Text inverse>{`index or pattern ${state.target || '…'}`}</Text>
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>type to edit · Enter check · Esc close</Hint>
        </Box>
      );
    case 'inspecting':
      return <Text>{`reading deleted documents, store sizes and disks for ${state.target}…`}</Text>;
    case 'review':
    case 'applying':
      return (
        <Box flexDirection="column">
          <TargetLine target={state.target} indices={state.indices} />
          <Facts lines={mergeIndexLines(state.before).slice(0, 4)} />
          {state.before.indices.length > 4 ? <Text dimColor>{`… and ${state.before.indices.length - 4} more`}</Text> : null}
          <Facts lines={mergeDiskLines(state.before).slice(0, 3)} />
          <Notes warnings={state.warnings} />
          {state.refuse ? (
            <Text color={colourOf('red')}>{`refused: ${state.refuse}`}</Text>
          ) : (
            state.plans.map((p) => <RequestLines key={p.path} preview={services.preview(p)} />)
          )}
          {state.phase === 'review' ? (
            <Hint>{state.refuse ? 'Esc close' : 'y merge · Esc close'}</Hint>
          ) : (
            <Text>{state.waitingLeases ? 'waiting (reading only) for the retention leases…' : state.task ? `merging, task ${state.task} (cannot be cancelled); sizes are read 10 s after…` : 'sending…'}</Text>
          )}
        </Box>
      );
    case 'done':
      return (
        <Box flexDirection="column">
          <Text color={colourOf(state.failures.length ? 'red' : 'green')}>{`${state.failures.length ? 'FAILED' : 'ok'}: merge finished (task ${state.task}); before -> after:`}</Text>
          <Facts lines={mergeIndexLines(state.before, state.after).slice(0, 6)} />
          <Facts lines={mergeDiskLines(state.before, state.after).slice(0, 3)} />
          {state.failures.slice(0, 3).map((f) => (
            <Text key={f} color={colourOf('red')} wrap="truncate-end">{`failure: ${f}`}</Text>
          ))}
          <Hint>any key closes</Hint>
        </Box>
      );
    case 'failed':
      return (
        <Box flexDirection="column">
          <Text color={colourOf('red')}>{state.message}</Text>
          <Hint>any key closes</Hint>
        </Box>
      );
    case 'cancelled':
      return <Text>cancelled: nothing was sent</Text>;
  }
}
