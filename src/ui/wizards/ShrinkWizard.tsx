// Right-size shards (issue 42): renders domain/wizards/shrink.ts. An unfinished run first (go on, or
// roll back while its original is there: Tab chooses), else the form over the Indices pane's
// highlighted index (its counts read, the proposal filled in), the plan, the index names typed
// (each original is deleted once its copy is checked), each step as it runs, and the result in
// numbers. Esc does not stop a run half-way: it ends on its own, and a kill is resumable.
// Laid out for 80x23: one line per fact, long lines cut.
import React, { useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { displayText } from '../../domain/text/display-text';
import { formatBytes, formatCount } from '../../domain/text/format';
import { formatDuration } from '../../domain/shrink/plan';
import { PLATFORM_REMINDER } from '../../domain/shrink/template';
import { SHRINK_FIELDS, type ShrinkField, type ShrinkForm, type ShrinkReport, type ShrinkState } from '../../domain/wizards/shrink';
import type { WizardServices } from '../../services/wizards';
import { shrinkWizard } from '../../services/wizards/shrink';
import { LineInput } from '../components/LineInput';
import { TypedConfirm } from '../components/TypedConfirm';
import { colourOf } from '../theme';
import { formKeys, useDialogKeys, useHint } from './dialog-keys';
import { FormRow } from './FormRow';
import { useSession, withServices } from './services';
import { useIndicesTarget } from './marked-target';
import { Cancelled, CLOSES, Hint, Lines, Waiting } from './wizard-text';

const LABELS: Record<ShrinkField, string> = {
  target: 'index or pattern',
  shards: 'shards after',
  template: 'template too',
  snapshot: 'snapshot first',
};

export const ShrinkWizard = withServices(function ShrinkFromSelection({
  onClose,
  services,
}: {
  onClose: () => void;
  services: WizardServices;
}) {
  // The marked indices, each named, else the highlighted one.
  return <ShrinkView services={services} initial={{ target: useIndicesTarget() }} onClose={onClose} />;
});

export function ShrinkView({
  services,
  initial,
  onClose,
}: {
  services: WizardServices;
  initial: Partial<ShrinkForm>;
  onClose: () => void;
}) {
  const [state, session] = useSession(() => services.open(shrinkWizard, initial));
  const [back, setBack] = useState(false);
  const send = session.send;
  useDialogKeys(session, onClose, (key) => {
    switch (state.phase) {
      case 'unfinished':
        if (key.is('dialog.nextField') && state.run.canRollBack) setBack((b) => !b);
        else if (key.is('dialog.submit')) send({ type: back ? 'rollback' : 'resume' });
        else if (key.edit) send({ type: 'line', edit: key.edit });
        else return false;
        return true;
      case 'input':
        return formKeys(key, send, () => send({ type: 'submit', now: Date.now() }));
      case 'review':
        if (key.is('dialog.submit')) send({ type: 'submit', now: Date.now() });
        else if (key.is('dialog.erase') && state.typed === '') send({ type: 'back' });
        else if (key.edit) send({ type: 'line', edit: key.edit });
        else return false;
        return true;
      case 'running':
        return true; // Esc too: the run ends on its own
      default:
        return false;
    }
  });
  return <ShrinkScreen state={state} rollback={back} />;
}

export function ShrinkScreen({ state, rollback = false }: { state: ShrinkState; rollback?: boolean }) {
  const hint = useHint();
  switch (state.phase) {
    case 'loading':
    case 'inspecting':
      return <Waiting phase={state.phase} />;
    case 'unfinished': {
      const { run } = state;
      return (
        <Box flexDirection="column">
          <Text bold color={colourOf('yellow')}>
            an unfinished right-sizing of this cluster (yours)
          </Text>
          <Text>{displayText(run.line)}</Text>
          <Text>{`  ${rollback ? '( )' : '(•)'} go on from the step it stopped at`}</Text>
          <Text dimColor={!run.canRollBack}>
            {`  ${rollback ? '(•)' : '( )'} roll back to the original${run.canRollBack ? '' : ' (not possible: it was deleted, its copy holds the documents)'}`}
          </Text>
          <TypedConfirm prompt={`type ${displayText(run.confirmText)}: `} typed={state.typed} />
          {state.error ? <Text color={colourOf('red')}>{displayText(state.error)}</Text> : null}
          <Hint>
            {hint(
              ...(run.canRollBack ? [['dialog.nextField', 'go on / roll back'] as const] : []),
              ['dialog.submit', 'start'],
              ['dialog.close', 'close'],
            )}
          </Hint>
        </Box>
      );
    }
    case 'input': {
      const h = state.hint;
      return (
        <Box flexDirection="column">
          {SHRINK_FIELDS.map((f) => {
            const v = state.form[f];
            return (
              <FormRow key={f} label={LABELS[f]} width={17} focused={f === state.focus}>
                {typeof v === 'boolean' ? (
                  v ? (
                    '[x] where a repository exists'
                  ) : (
                    '[ ]'
                  )
                ) : (
                  <LineInput value={v} placeholder={f === 'template' ? 'none (e.g. service_v9)' : f === 'shards' ? 'the proposal' : '…'} />
                )}
              </FormRow>
            );
          })}
          {h ? (
            <Text wrap="truncate-end">{`${displayText(h.index)}: ${h.shards} shards, ${formatBytes(h.primaryBytes)}; can go to ${h.targets.join(', ') || 'none'}${h.proposed !== null ? `; proposed ${h.proposed} (under ~30 GB a shard)` : ''}`}</Text>
          ) : null}
          {state.error ? <Text color={colourOf('red')}>{displayText(state.error)}</Text> : null}
          {state.listing && state.listing.length > 1 ? (
            <Lines
              lines={[
                ...state.listing.slice(0, 8).map((l) => `  ${displayText(l)}`),
                ...(state.listing.length > 8 ? [`  … ${state.listing.length - 8} more`] : []),
              ]}
            />
          ) : null}
          <Hint>
            {hint(
              'type to edit',
              ['dialog.nextField', 'next field'],
              ['dialog.change', 'toggles'],
              ['dialog.submit', 'plan'],
              ['dialog.close', 'close'],
            )}
          </Hint>
        </Box>
      );
    }
    case 'review': {
      const r = state.review;
      const t = r.totals;
      const shown = r.plans.slice(0, 3);
      const first = r.plans[0];
      return (
        <Box flexDirection="column">
          <Text
            bold
            wrap="truncate-end"
          >{`${r.mode} ${formatCount(t.indices)} ${t.indices === 1 ? 'index' : 'indices'}: ${formatCount(t.docs)} documents, ${formatBytes(t.bytes)}, about ${formatDuration(t.estimate.totalMs)}`}</Text>
          <Text
            color={colourOf('yellow')}
            wrap="truncate-end"
          >{`writes to each project are refused for about ${formatDuration(t.estimate.writesRefusedMs)} (block to lift)`}</Text>
          {shown.map((p) => (
            <Box key={p.index} flexDirection="column">
              <Text wrap="truncate-end">{`${displayText(p.index)}: ${formatCount(p.docs)} docs, ${p.from} -> ${p.to} shard${p.to === 1 ? '' : 's'} (of ${p.targets.join(', ')}), copy on ${displayText(p.node)}${p.route ? ' (moved there first)' : ''}`}</Text>
              <Text dimColor wrap="truncate-end">{`  disk: ${displayText(p.disk.message)}`}</Text>
            </Box>
          ))}
          {r.plans.length > shown.length ? <Text>{`… and ${r.plans.length - shown.length} more`}</Text> : null}
          {r.skipped.length ? (
            <Text
              dimColor
              wrap="truncate-end"
            >{`left as they are: ${r.skipped.map((s) => `${displayText(s.index)} (${s.reason})`).join(', ')}`}</Text>
          ) : null}
          <Text wrap="wrap">{`steps: ${first.steps.join(', ')}`}</Text>
          {r.autoCreate.held !== null ? (
            <Text wrap="truncate-end">{`while a name is free: action.auto_create_index ${displayText(r.autoCreate.held)}`}</Text>
          ) : null}
          <Text wrap="truncate-end">{`shard copies open ${formatCount(r.capacity.before.open)} -> ${formatCount(r.capacity.after.open)} of ${formatCount(r.capacity.before.limit)}${r.capacity.before.projectIndices !== null ? `; project indices that fit ${formatCount(r.capacity.before.projectIndices)} -> ${formatCount(r.capacity.after.projectIndices)}` : ''}`}</Text>
          {r.template ? (
            <Text wrap="truncate-end">{`template: ${displayText(r.template.plan ? r.template.plan.summary : `${r.template.setter.name} says ${String(r.template.setter.shards)} already`)}`}</Text>
          ) : null}
          {r.warnings.map((w) => (
            <Text key={w} color={colourOf('yellow')} wrap="truncate-end">{`! ${displayText(w)}`}</Text>
          ))}
          <TypedConfirm prompt={`each original is deleted once copied: type ${displayText(r.confirmText)} `} typed={state.typed} />
          {state.error ? <Text color={colourOf('red')}>{displayText(state.error)}</Text> : null}
          <Hint>{hint(['dialog.submit', 'start'], ['dialog.erase', 'edit (empty: back)'], ['dialog.close', 'cancel'])}</Hint>
        </Box>
      );
    }
    case 'running':
      return (
        <Box flexDirection="column">
          {state.log.slice(-16).map((l, i) => (
            <Text key={i} wrap="truncate-end" color={colourOf(l.phase === 'done' ? 'green' : l.phase === 'failed' ? 'red' : undefined)}>
              {l.phase === 'start' ? `${displayText(l.index)} ${l.step}: ${displayText(l.text)}` : `  ${l.phase}: ${displayText(l.text)}`}
            </Text>
          ))}
          <Hint>{`${state.what === 'rollback' ? 'rolling back' : 'running'}: each step journaled and audited; it ends on its own`}</Hint>
        </Box>
      );
    case 'done':
      return <Report report={state.report} />;
    case 'failed':
      return (
        <Box flexDirection="column">
          <Text color={colourOf('red')}>{displayText(state.message)}</Text>
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    case 'cancelled':
      return <Cancelled />;
  }
}

function Report({ report: r }: { report: ShrinkReport }) {
  return (
    <Box flexDirection="column">
      <Text
        color={colourOf(r.ok ? 'green' : 'red')}
        wrap="wrap"
      >{`${r.ok ? 'ok' : 'FAILED'}: ${displayText(r.message)} (${formatDuration(r.tookMs)})`}</Text>
      {r.indices.slice(0, 6).map((i) => (
        <Text
          key={i.index}
          wrap="truncate-end"
        >{`  ${displayText(i.index)}: ${i.from} -> ${i.to} shards, ${i.docsBefore === null ? '-' : formatCount(i.docsBefore)} -> ${i.docsAfter === null ? '-' : formatCount(i.docsAfter)} documents (${formatDuration(i.ms)}): ${displayText(i.outcome)}`}</Text>
      ))}
      {r.indices.length > 6 ? <Text>{`  … and ${r.indices.length - 6} more`}</Text> : null}
      {r.shardsPerNode.length ? (
        <Text wrap="truncate-end">{`shards per node: ${r.shardsPerNode.map((n) => `${displayText(n.node)} ${formatCount(n.before)} -> ${formatCount(n.after)}`).join(', ')}`}</Text>
      ) : null}
      {r.capacity && r.capacity.before.projectIndices !== null ? (
        <Text wrap="truncate-end">{`new project indices that fit: ${formatCount(r.capacity.before.projectIndices)} -> ${formatCount(r.capacity.after.projectIndices)}`}</Text>
      ) : null}
      {r.template ? (
        <>
          <Text
            color={colourOf(r.template.ok ? 'green' : 'red')}
            wrap="truncate-end"
          >{`template: ${displayText(r.template.message)}`}</Text>
          {r.template.ok ? (
            <>
              <Text wrap="wrap">{`topic.elasticsearch.index-templates-settings: ${displayText(JSON.stringify(r.template.platformJson))}`}</Text>
              <Text color={colourOf('yellow')} wrap="wrap">
                {PLATFORM_REMINDER}
              </Text>
            </>
          ) : null}
        </>
      ) : null}
      <Hint>{CLOSES}</Hint>
    </Box>
  );
}
