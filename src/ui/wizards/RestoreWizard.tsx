// Restore wizard (R on the Snapshots pane): the indices (all of the selected snapshot's by default),
// beside the originals under a suffix (default: no data touched) or in place (the originals closed
// and restored over, confirmed by typing their names), then the session of
// services/wizards/restore.ts: the preview, the restore followed shard by shard until green, and
// the documents counted against the originals.
import React, { useEffect, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { formatCount } from '../../domain/text/format';
import { editLine } from '../../domain/console/line-edit';
import { fitText } from '../../domain/text/table';
import { wrapText } from '../../domain/text/text';
import { recoveryLine, recoveryPercent } from '../../domain/snapshots';
import {
  DEFAULT_SUFFIX,
  defaultRestoreIndices,
  replaceConfirmText,
  restoreCopyLines,
  restoreNotes,
  type RestoreField,
  type RestoreForm,
  type RestoreState,
} from '../../domain/wizards/restore';
import { comparisonLines } from '../../domain/corruption/loss';
import type { WizardServices } from '../../services/wizards';
import { restoreWizard } from '../../services/wizards/restore';
import { useConsole, useUi } from '../app/context';
import { useTerminalSize } from '../app/terminal';
import { Bar } from '../components/Bar';
import { LineInput } from '../components/LineInput';
import { RequestPreview, requestPreviewRows } from '../components/RequestPreview';
import { TypedConfirm } from '../components/TypedConfirm';
import { colourOf } from '../theme';
import { useDialogKeys, useHint, useLocalForm, type FormEvent } from './dialog-keys';
import { FormRow } from './FormRow';
import { useSession, withServices } from './services';
import { Cancelled, CLOSES, Failed, Hint, Results, WIZARD_ROWS_AROUND } from './wizard-text';

type Field = 'indices' | 'mode' | 'suffix' | 'aliases' | 'system';
const FIELDS: Field[] = ['indices', 'mode', 'suffix', 'aliases', 'system'];
const LABELS: Record<Field, string> = {
  indices: 'indices',
  system: 'system indices',
  mode: 'where',
  suffix: 'rename suffix',
  aliases: 'aliases',
};
/** A refusal the form comes back with: the reason beside its field (issue 47 item 2). */
type FormRefusal = { message: string; field?: RestoreField };
/** How the console asks for the snapshot's aliases beside (the restore notes name it). */
const INCLUDE_HOW = 'the form\'s "aliases"';
/**
 * Under this many rows (80x23) an in-place review over a red original keeps each line to one row,
 * and each route's loss without how it was reached (the CLI prints it whole).
 */
const SMALL_ROWS = 30;
const BAR_WIDTH = 10;

export const RestoreWizard = withServices(function RestoreFromSelection({
  onClose,
  services,
}: {
  onClose: () => void;
  services: WizardServices;
}) {
  const sel = useUi((s) => s.selection.snapshots);
  const held = useConsole((s) => s.snapshots.snapshots.data?.find((x) => x.repository === sel?.repository && x.name === sel?.snapshot));
  const [form, setForm] = useState<RestoreForm | undefined>();
  const [back, setBack] = useState<{ form: RestoreForm; refusal: FormRefusal } | undefined>();
  if (!sel) return <NoSnapshot onClose={onClose} />;
  if (form)
    return (
      <RestoreRun
        services={services}
        form={form}
        onClose={onClose}
        onRefused={(refusal) => {
          setBack({ form, refusal });
          setForm(undefined);
        }}
      />
    );
  // At first every index the snapshot holds that a restore accepts as it is (system ones are a choice).
  const initial: RestoreForm = back?.form ?? {
    repository: sel.repository,
    snapshot: sel.snapshot,
    indices: defaultRestoreIndices(held?.indices ?? []),
    mode: 'beside',
    suffix: DEFAULT_SUFFIX,
  };
  return (
    <RestoreFormView
      key={back ? 'again' : 'first'}
      initial={initial}
      refusal={back?.refusal}
      {...(back?.refusal.field ? { focusAt: back.refusal.field } : {})}
      onSubmit={setForm}
      onClose={onClose}
    />
  );
});

function NoSnapshot({ onClose }: { onClose: () => void }) {
  useLocalForm(
    {},
    (s) => s,
    () => undefined,
    onClose,
  );
  return <Text>no snapshot selected: pick one in the Snapshots pane first (Esc closes)</Text>;
}

type FormStep = { form: RestoreForm; focus: Field };
const visibleFields = (form: RestoreForm) => FIELDS.filter((f) => (f !== 'suffix' && f !== 'aliases') || form.mode === 'beside');

function restoreFormStep(s: FormStep, e: FormEvent): FormStep {
  const visible = visibleFields(s.form);
  if (e.type === 'focus') return { ...s, focus: visible[(visible.indexOf(s.focus) + e.by + visible.length) % visible.length] };
  // Space is both a change and a typed character: the choice takes the change only.
  if (s.focus === 'mode')
    return e.type === 'change' ? { ...s, form: { ...s.form, mode: s.form.mode === 'beside' ? 'replace' : 'beside' } } : s;
  if (s.focus === 'aliases') return e.type === 'change' ? { ...s, form: { ...s.form, includeAliases: !s.form.includeAliases } } : s;
  if (s.focus === 'system') return e.type === 'change' ? { ...s, form: { ...s.form, includeSystem: !s.form.includeSystem } } : s;
  if (e.type === 'line') return { ...s, form: { ...s.form, [s.focus]: editLine(s.form[s.focus], e.edit) } };
  return s;
}

export function RestoreFormView({
  initial,
  refusal,
  onSubmit,
  onClose,
  focusAt = 'indices',
}: {
  initial: RestoreForm;
  refusal?: FormRefusal;
  onSubmit: (form: RestoreForm) => void;
  onClose: () => void;
  focusAt?: Field;
}) {
  const { form, focus } = useLocalForm({ form: initial, focus: focusAt }, restoreFormStep, (s) => onSubmit(s.form), onClose);
  const hint = useHint();
  const visible = visibleFields(form);
  return (
    <Box flexDirection="column">
      <Text>{`from ${form.repository}/${form.snapshot}`}</Text>
      {refusal && !refusal.field ? <Text color={colourOf('red')}>{`not restored: ${refusal.message}`}</Text> : null}
      {visible.map((f) => (
        <React.Fragment key={f}>
          <FormRow label={LABELS[f]} width={14} focused={f === focus}>
            {f === 'system' ? (
              form.includeSystem ? (
                <Text color={colourOf('yellow')}>included: dot indices may be named</Text>
              ) : (
                'left out (dot indices are named only when included)'
              )
            ) : f === 'mode' ? (
              form.mode === 'beside' ? (
                'beside the originals, under a new name (no data touched)'
              ) : (
                <Text color={colourOf('red')}>in place: close the originals and restore over them</Text>
              )
            ) : f === 'aliases' ? (
              form.includeAliases ? (
                <Text color={colourOf('red')}>{'included (one the original holds then points at both)'}</Text>
              ) : (
                'left out (they would point at the copies and the originals)'
              )
            ) : (
              <LineInput value={form[f]} placeholder="…" />
            )}
          </FormRow>
          {refusal?.field === f ? <Text color={colourOf('red')}>{`  ${refusal.message}`}</Text> : null}
        </React.Fragment>
      ))}
      {form.mode === 'replace' ? (
        <Text color={colourOf('red')}>{'what was written to them since the snapshot is lost: you will type their names'}</Text>
      ) : null}
      <Hint>
        {hint(
          'type to edit',
          ['dialog.nextField', 'next field'],
          ['dialog.change', focus === 'aliases' || focus === 'system' ? 'left out / included' : 'beside / in place'],
          ['dialog.submit', 'preview'],
          ['dialog.close', 'close'],
        )}
      </Hint>
    </Box>
  );
}

export function RestoreRun({
  services,
  form,
  onClose,
  onRefused,
}: {
  services: WizardServices;
  form: RestoreForm;
  onClose: () => void;
  /** Refused before anything was sent: the caller shows its form again (without it, the refusal is shown here). */
  onRefused?: (r: FormRefusal) => void;
}) {
  const [state, session] = useSession(() => services.open(restoreWizard, form));
  const refused = state.phase === 'refused' ? state : undefined;
  useEffect(() => {
    if (refused && onRefused) onRefused({ message: refused.message, ...(refused.field ? { field: refused.field } : {}) });
  }, [refused, onRefused]);
  const [typed, setTyped] = useState('');
  const { columns, rows } = useTerminalSize();
  useDialogKeys(session, onClose, (key) => {
    // The session's state now, not the last render's: a key may come before the screen redraws.
    const now = session.getState();
    if (now.phase === 'watching') {
      if (now.cancel) {
        if (key.is('dialog.submit')) session.send({ type: 'confirmCancel' });
        else if (key.edit) session.send({ type: 'line', edit: key.edit });
        else return false;
        return true;
      }
      if (!key.is('restore.cancel')) return false;
      session.send({ type: 'cancelRestore' });
      return true;
    }
    if (now.phase !== 'review') return false;
    // A review taller than the screen: only Esc (nothing confirmed unseen).
    if (!reviewLayout(now, services, columns, rows).fits) return false;
    if (form.mode === 'replace') {
      if (key.is('dialog.submit')) session.send({ type: 'confirm', confirmation: { by: 'typed', text: typed } });
      else if (key.edit) setTyped((t) => editLine(t, key.edit!));
      else return false;
      return true;
    }
    if (!key.is('dialog.confirm')) return false;
    session.send({ type: 'confirm', confirmation: { by: 'key' } });
    return true;
  });
  return <RestoreScreen state={state} services={services} typed={typed} />;
}

type ReviewState = Extract<RestoreState, { phase: 'review' | 'applying' | 'watching' }>;

/**
 * The review at this size: what it shows under the indices (in place over a red original each way
 * back's loss, then the copy taken before the delete (issue 48), and the notes; at 80x23 over a red
 * original the losses take the settings note's row: the CLI prints it), the requests, and the rows
 * it all takes (each index a line, the notes as drawn, the request box, the typed line and the
 * keys). What is confirmed must be seen whole: a review taller than the wizard's rows is not shown
 * and cannot be confirmed.
 */
function reviewLayout(state: ReviewState, services: WizardServices, columns: number, rows: number) {
  // Watching shows the restore's progress, not its requests.
  const previews = state.phase === 'watching' ? [] : state.plans.map((p) => services.preview(p));
  if (state.phase !== 'review') return { losses: [], copies: [], notes: [], previews, needed: 0, fits: true };
  const small = rows < SMALL_ROWS;
  const losses = state.facts.indices
    .flatMap((i) => (i.loss ? comparisonLines([i.loss.restore, i.loss.exorcise]) : []))
    .filter((l) => !small || (!l.startsWith('    ') && !l.startsWith('what each')));
  const notes = restoreNotes(state.form, state.facts, INCLUDE_HOW).filter(
    (n) => !(small && losses.length && n.text.startsWith('settings:')),
  );
  const copies = restoreCopyLines(state.facts);
  const noteRows = notes.reduce((n, x) => n + (small && losses.length ? 1 : wrapText(x.text, columns).length), 0);
  const needed =
    state.facts.indices.length +
    noteRows +
    losses.length +
    copies.length +
    requestPreviewRows(previews, columns) +
    (state.form.mode === 'replace' ? 2 : 1);
  return { losses, copies, notes, previews, needed, fits: needed <= rows - WIZARD_ROWS_AROUND };
}

export function RestoreScreen({ state, services, typed = '' }: { state: RestoreState; services: WizardServices; typed?: string }) {
  const hint = useHint();
  const { columns, rows } = useTerminalSize();
  const width = Math.max(20, columns - 6);
  const small = rows < SMALL_ROWS;
  switch (state.phase) {
    case 'loading':
      return <Text>{`reading ${state.form.repository}/${state.form.snapshot} and the indices it would restore…`}</Text>;
    case 'refused':
      return (
        <Box flexDirection="column">
          <Text color={colourOf('red')}>{`not restored: ${state.message}`}</Text>
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    case 'copying':
      return (
        <Box flexDirection="column">
          <Text>{`copying the shard folders before anything is deleted (nothing is sent until the copy is checked)…`}</Text>
          {state.log.map((l, i) => (
            <Text key={`c${i}`} color={colourOf(l.startsWith('FAILED') ? 'red' : undefined)}>
              {fitText(l, width)}
            </Text>
          ))}
        </Box>
      );
    case 'review':
    case 'applying':
    case 'watching': {
      const replace = state.form.mode === 'replace';
      const names = state.facts.indices.map((i) => i.index);
      const { losses, copies, notes, previews, ...room } = reviewLayout(state, services, columns, rows);
      if (!room.fits)
        return (
          <Box flexDirection="column">
            <Text color={colourOf('yellow')} wrap="wrap">
              {`the review of these ${names.length} indices takes ${room.needed} rows: too tall to review whole here. Make the terminal taller (${room.needed + WIZARD_ROWS_AROUND} rows), or restore fewer indices (shardeck restore --dry-run prints it whole); nothing was sent`}
            </Text>
            <Hint>{hint(['dialog.close', 'close'])}</Hint>
          </Box>
        );
      return (
        <Box flexDirection="column">
          {state.facts.indices.map((i) => (
            <Text key={i.index}>
              {fitText(
                `${i.index} -> ${i.target}${i.originalDocs !== undefined ? ` (original: ${formatCount(i.originalDocs)} docs${replace ? ', overwritten' : ''})` : i.unreadable ? ` (original ${i.unreadable})` : ' (no open original)'}`,
                width,
              )}
            </Text>
          ))}
          {notes.map((n) => (
            <Text key={n.text} color={colourOf(n.tone)} wrap={small && losses.length ? 'truncate-end' : 'wrap'}>
              {n.text}
            </Text>
          ))}
          {losses.map((l, i) => (
            <Text key={`l${i}`} color={colourOf(l.startsWith('loses least') ? 'green' : undefined)}>
              {fitText(l, width)}
            </Text>
          ))}
          {copies.map((l, i) => (
            <Text key={`k${i}`} color={colourOf(l.startsWith('NOT') ? 'red' : undefined)}>
              {fitText(l, width)}
            </Text>
          ))}
          {state.phase === 'watching' && state.cancel ? (
            <>
              <RequestPreview previews={[services.preview(state.cancel.plan)]} />
              <TypedConfirm prompt={`type ${state.cancel.plan.confirmText} to delete them: `} typed={state.cancel.typed} />
              {state.cancel.error ? <Text color={colourOf('red')}>{state.cancel.error}</Text> : null}
              <Hint>{hint(['dialog.submit', 'send'], ['dialog.close', 'back (the restore goes on)'])}</Hint>
            </>
          ) : state.phase === 'watching' ? (
            <>
              <Progress state={state} width={width} />
              <Hint>{hint(['restore.cancel', 'cancel the restore (deletes the restoring indices)'])}</Hint>
            </>
          ) : (
            <RequestPreview previews={previews} />
          )}
          {state.phase === 'review' ? (
            replace ? (
              <>
                <TypedConfirm prompt={`type ${replaceConfirmText(names, state.facts)} to restore in place: `} typed={typed} />
                <Hint>{hint(['dialog.submit', 'send'], ['dialog.close', 'cancel'])}</Hint>
              </>
            ) : (
              <Hint>{hint(['dialog.confirm', 'send'], ['dialog.close', 'cancel'])}</Hint>
            )
          ) : state.phase === 'applying' ? (
            <Text>sending…</Text>
          ) : null}
        </Box>
      );
    }
    case 'done': {
      const { report } = state;
      return (
        <Box flexDirection="column">
          <Results results={state.results} />
          {report.counts.map((c) => (
            <Text key={c.target} color={colourOf(c.before === undefined || c.before === c.after ? undefined : 'yellow')}>
              {fitText(
                `${c.target}: ${formatCount(c.after)} docs${c.before === undefined ? '' : ` (${c.index} before: ${formatCount(c.before)})`}`,
                width,
              )}
            </Text>
          ))}
          <Text color={colourOf(report.green ? 'green' : 'red')}>
            {report.green ? 'restored indices green' : `restored indices ${report.health}: not green in time`}
          </Text>
          {(report.losses ?? []).map((l) => (
            <Text key={`loss-${l.index}`}>{fitText(l.text, width)}</Text>
          ))}
          {(state.copied ?? []).map((l, i) => (
            <Text key={`copy-${i}`} dimColor>
              {fitText(l, width)}
            </Text>
          ))}
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    }
    case 'stopping':
      return <Text>{`${state.cancelPlan.summary}…`}</Text>;
    case 'stopped':
      return (
        <Box flexDirection="column">
          <Results results={state.results} />
          <Text color={colourOf('yellow')}>restore cancelled: its indices are deleted; the snapshot is untouched</Text>
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    case 'failed':
      return <Failed results={state.results} message={state.message} />;
    case 'cancelled':
      return <Cancelled />;
  }
}

/** Each restoring shard with a bar (bytes, files, rate, time left), then the restored indices' health. */
function Progress({ state, width }: { state: Extract<RestoreState, { phase: 'watching' }>; width: number }) {
  const p = state.progress;
  if (!p) return <Text>restore sent: waiting for its first shards…</Text>;
  return (
    <Box flexDirection="column">
      {p.recoveries.map((r) => {
        // Fitted, not cut at the end: at 80 columns the rate and time left stay (the percent goes, the bar shows it).
        const room = Math.max(1, width - BAR_WIDTH - 3);
        const l = recoveryLine(r, room);
        return (
          <Box key={`${r.index}[${r.shard}]`}>
            <Bar percent={recoveryPercent(r)} width={BAR_WIDTH} tone={l.tone ?? 'yellow'} />
            <Text color={colourOf(l.tone)}> {fitText(l.text, room)}</Text>
          </Box>
        );
      })}
      <Text
        color={colourOf(p.health === 'green' ? 'green' : p.health === 'red' ? 'red' : 'yellow')}
      >{`health of the restored indices: ${p.health}; following until green…`}</Text>
    </Box>
  );
}
