// Cancel or rethrottle the task highlighted in the Tasks pane (x / t): renders
// domain/wizards/task-control.ts. The task as the node reports it now, the rate typed (rethrottle),
// the request previewed, then y, or the task id typed for a task that writes.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { afterLine, progressLine } from '../../domain/delete/task';
import { displayText } from '../../domain/text/display-text';
import { confirmationNeeded } from '../../domain/mutation/confirmation';
import { formatMillis } from '../../domain/panes/nodes';
import type { TaskVerb } from '../../domain/wizards/task-control';
import type { WizardServices } from '../../services/wizards';
import { taskControlWizard } from '../../services/wizards/task-control';
import { LineInput } from '../components/LineInput';
import { RequestPreview } from '../components/RequestPreview';
import { TypedConfirm } from '../components/TypedConfirm';
import { useUi } from '../app/context';
import { useTerminalSize } from '../app/terminal';
import { colourOf } from '../theme';
import { lineKeys, useDialogKeys, useHint } from './dialog-keys';
import { useSession, withServices } from './services';
import { CLOSES, Hint, Results, Waiting } from './wizard-text';

export const TaskCancelWizard = withServices(({ onClose, services }) => (
  <TaskControlView verb="cancel" onClose={onClose} services={services} />
));
export const TaskRethrottleWizard = withServices(({ onClose, services }) => (
  <TaskControlView verb="rethrottle" onClose={onClose} services={services} />
));

function TaskControlView({ verb, onClose, services }: { verb: TaskVerb; onClose: () => void; services: WizardServices }) {
  const task = useUi((s) => s.selection.tasks?.task);
  // Opened with no task under the cursor: nothing to do (the key needs a highlighted row).
  return task ? <Session verb={verb} id={task} onClose={onClose} services={services} /> : <NoTask onClose={onClose} />;
}

function NoTask({ onClose }: { onClose: () => void }) {
  useDialogKeys({ getState: () => ({ phase: 'nothing' }), send: () => undefined }, onClose, () => false);
  return <Text>no task is highlighted: move the cursor to one in the Tasks pane</Text>;
}

function Session({ verb, id, onClose, services }: { verb: TaskVerb; id: string; onClose: () => void; services: WizardServices }) {
  const [state, session] = useSession(() => services.open(taskControlWizard, verb, id));
  const hint = useHint();
  const { columns } = useTerminalSize();
  useDialogKeys(session, onClose, (key) => {
    if (state.phase === 'review') return lineKeys(key, session.send);
    if (state.phase !== 'confirming') return false;
    if (confirmationNeeded(state.plan).kind === 'type') return lineKeys(key, session.send);
    if (key.is('dialog.confirm')) session.send({ type: 'confirm', confirmation: { by: 'key' } });
    else if (key.is('dialog.erase')) session.send({ type: 'back' });
    else return false;
    return true;
  });
  if (state.phase === 'loading' || state.phase === 'applying' || state.phase === 'failed' || state.phase === 'cancelled')
    return <Waiting phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  const t = state.task;
  const head = `${displayText(t.id)} · ${displayText(t.action)} · running ${formatMillis(t.runningMillis)}`;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {head}
      </Text>
      {t.description ? <Text wrap="truncate-end">{`description: ${displayText(t.description)}`}</Text> : null}
      {/byquery|reindex/.test(t.action) ? <Text wrap="truncate-end">{progressLine(t, columns)}</Text> : null}
      {state.phase === 'nothing' ? (
        <>
          <Text color={colourOf('yellow')}>{`nothing sent: ${state.message}`}</Text>
          <Hint>{CLOSES}</Hint>
        </>
      ) : state.phase === 'review' ? (
        <>
          <Text>
            {'new rate (documents per second, -1 for no throttle): '}
            <LineInput value={state.input} placeholder="…" />
          </Text>
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>{hint('type a rate', ['dialog.submit', 'check'], ['dialog.close', 'close'])}</Hint>
        </>
      ) : state.phase === 'confirming' ? (
        <Confirming state={state} preview={services.preview} hint={hint} />
      ) : (
        <>
          <Results results={[state.result]} />
          {state.after ? <Text wrap="wrap">{`now: ${afterLine(state.verb, state.after)}`}</Text> : null}
          <Hint>{CLOSES}</Hint>
        </>
      )}
    </Box>
  );
}

type ConfirmingState = Extract<ReturnType<ReturnType<typeof taskControlWizard>['getState']>, { phase: 'confirming' }>;

function Confirming({
  state,
  preview,
  hint,
}: {
  state: ConfirmingState;
  preview: WizardServices['preview'];
  hint: ReturnType<typeof useHint>;
}) {
  const need = confirmationNeeded(state.plan);
  return (
    <>
      <RequestPreview previews={[preview(state.plan)]} />
      {need.kind === 'type' ? (
        <>
          <TypedConfirm prompt={`it stops half done: type its number ${displayText(need.expected)} to cancel it: `} typed={state.typed} />
          {state.error ? <Text color={colourOf('red')}>{displayText(state.error)}</Text> : null}
          <Hint>{hint(['dialog.submit', 'send'], ['dialog.close', 'close'])}</Hint>
        </>
      ) : (
        <Hint>
          {hint(['dialog.confirm', 'send'], state.verb === 'rethrottle' ? ['dialog.erase', 'edit'] : '', ['dialog.close', 'close'])}
        </Hint>
      )}
    </>
  );
}
