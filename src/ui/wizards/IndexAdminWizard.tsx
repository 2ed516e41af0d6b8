// Close, open or delete whole indices (the Indices pane's c, u and X): renders
// domain/wizards/index-admin.ts. Opened on the marked indices (each named), else the highlighted
// one; each index's facts, the request naming exactly them, then y (close, open) or the count and
// each project index's name typed (delete).
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { confirmationNeeded } from '../../domain/mutation/confirmation';
import type { IndexAction } from '../../domain/maintenance/index-admin';
import { indexFactText, typedAsk, type IndexAdminState } from '../../domain/wizards/index-admin';
import type { WizardServices } from '../../services/wizards';
import { indexAdminWizard } from '../../services/wizards/index-admin';
import { RequestPreview, requestPreviewRows } from '../components/RequestPreview';
import type { Preview } from '../../domain/mutation/preview';
import { useTerminalSize } from '../app/terminal';
import { TypedConfirm } from '../components/TypedConfirm';
import { colourOf } from '../theme';
import { lineKeys, useDialogKeys, useHint } from './dialog-keys';
import { useIndicesTarget } from './marked-target';
import { useSession, withServices } from './services';
import { CLOSES, Hint, Results, Waiting, WIZARD_ROWS_AROUND } from './wizard-text';

export const IndexCloseWizard = withServices(({ onClose, services }) => (
  <IndexAdminView action="close" onClose={onClose} services={services} />
));
export const IndexOpenWizard = withServices(({ onClose, services }) => (
  <IndexAdminView action="open" onClose={onClose} services={services} />
));
export const IndexDeleteWizard = withServices(({ onClose, services }) => (
  <IndexAdminView action="delete" onClose={onClose} services={services} />
));

/**
 * The review's rows: how many indices are listed one a line in the room the request (shown whole:
 * it names every one) and the lines under it leave; `fits` false when the request alone is taller
 * than the screen allows (then nothing can be confirmed: what is confirmed must be seen whole).
 */
function reviewRoom(state: Extract<IndexAdminState, { preview: unknown }>, preview: Preview | undefined, columns: number, rows: number) {
  const { facts, already, snapshotsRead } = state.preview;
  const unsaved = state.action === 'delete' && facts.some((f) => !f.newestSnapshot);
  const box = preview ? requestPreviewRows([preview], columns) : 1;
  const other = 2 + (already.length ? 1 : 0) + (unsaved ? 1 : 0) + (snapshotsRead ? 0 : 1) + 4;
  const room = rows - WIZARD_ROWS_AROUND - box - other;
  return { listed: Math.max(0, Math.min(facts.length, room)), fits: room >= 0, box };
}

function IndexAdminView({ action, onClose, services }: { action: IndexAction; onClose: () => void; services: WizardServices }) {
  const target = useIndicesTarget();
  const [state, session] = useSession(() => services.open(indexAdminWizard, action, target));
  const { columns, rows } = useTerminalSize();
  useDialogKeys(session, onClose, (key) => {
    if (state.phase !== 'review') return false;
    // A request taller than the screen: only Esc (nothing confirmed unseen).
    if (!reviewRoom(state, services.preview(state.plan), columns, rows).fits) return false;
    if (confirmationNeeded(state.plan).kind === 'type') return lineKeys(key, session.send);
    if (!key.is('dialog.confirm')) return false;
    session.send({ type: 'confirm', confirmation: { by: 'key' } });
    return true;
  });
  return <IndexAdminScreen state={state} services={services} />;
}

export function IndexAdminScreen({ state, services }: { state: IndexAdminState; services: WizardServices }) {
  const hint = useHint();
  const { columns, rows } = useTerminalSize();
  if (state.phase === 'loading')
    return (
      <Text wrap="truncate-end">{`reading ${state.target.split(',').length} ${state.target.includes(',') ? 'indices' : 'index'}…`}</Text>
    );
  if (state.phase === 'failed' || state.phase === 'cancelled')
    return <Waiting phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  if (state.phase === 'nothing')
    return (
      <Box flexDirection="column">
        <Text color={colourOf('yellow')} wrap="wrap">{`nothing sent: ${state.message}`}</Text>
        <Hint>{CLOSES}</Hint>
      </Box>
    );
  const { facts, already, snapshotsRead } = state.preview;
  const unsaved = facts.filter((f) => !f.newestSnapshot).map((f) => f.index);
  const preview = state.phase === 'done' ? undefined : services.preview(state.plan);
  const { listed, fits, box } = reviewRoom(state, preview, columns, rows);
  if (!fits)
    return (
      <Box flexDirection="column">
        <Text bold>{`${state.action} ${facts.length} indices, each named:`}</Text>
        <Text color={colourOf('yellow')} wrap="wrap">
          {`the request naming these ${facts.length} indices takes ${box} rows: too tall to review whole here. Make the terminal taller (${box + WIZARD_ROWS_AROUND + 7} rows), or mark fewer indices; nothing was sent`}
        </Text>
        <Hint>{hint(['dialog.close', 'close'])}</Hint>
      </Box>
    );
  return (
    <Box flexDirection="column">
      <Text bold>{`${state.action} ${facts.length} ${facts.length === 1 ? 'index' : 'indices'}, each named:`}</Text>
      {facts.slice(0, listed).map((f) => (
        <Text key={f.index} wrap="truncate-end">{`  ${indexFactText(f)}`}</Text>
      ))}
      {facts.length > listed ? <Text dimColor>{`  … and ${facts.length - listed} more, each named in the request below`}</Text> : null}
      {already.length ? (
        <Text
          dimColor
          wrap="truncate-end"
        >{`already ${state.action === 'close' ? 'closed' : 'open'}, left out: ${already.join(', ')}`}</Text>
      ) : null}
      {state.action === 'delete' && unsaved.length ? (
        <Text
          color={colourOf('yellow')}
          wrap="truncate-end"
        >{`! no snapshot holds ${unsaved.join(', ')}: take one first (Snapshots pane, S)`}</Text>
      ) : null}
      {!snapshotsRead ? <Text color={colourOf('yellow')}>! the snapshots could not be read: which hold these is not known</Text> : null}
      {state.phase === 'done' ? (
        <>
          <Results results={[state.result]} />
          <Hint>{CLOSES}</Hint>
        </>
      ) : (
        <>
          <RequestPreview previews={[preview!]} />
          {state.phase === 'applying' ? (
            <Text>sending…</Text>
          ) : confirmationNeeded(state.plan).kind === 'type' ? (
            <>
              <TypedConfirm prompt={typedAsk(state.plan)} typed={state.typed} />
              {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
              <Hint>{hint(['dialog.submit', 'send'], ['dialog.close', 'cancel'])}</Hint>
            </>
          ) : (
            <>
              {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
              <Hint>{hint(['dialog.confirm', state.action], ['dialog.close', 'cancel'])}</Hint>
            </>
          )}
        </>
      )}
    </Box>
  );
}
