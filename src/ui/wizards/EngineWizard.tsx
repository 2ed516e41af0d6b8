// The engine wizard (E on the Nodes pane): this host's engine, its service and its plugins, then
// an action chosen by key. Each action shows its exact commands and runs once confirmed: the
// node's name typed for stop and restart, y for start and plugin changes. After a plugin change
// the restart is offered (r). The session is the one `shardeck service` / `shardeck plugin` drive.
import React from 'react';
import { Text } from '../components/Text';
import { actionLabel, engineClosesOnEsc, RESTART, type EngineWizardState } from '../../domain/wizards/engine';
import type { WizardServices } from '../../services/wizards';
import { engineWizard } from '../../services/wizards/engine';
import { LineInput } from '../components/LineInput';
import { TypedConfirm } from '../components/TypedConfirm';
import { colourOf } from '../theme';
import { askKeys, useDialogKeys, useHint, useKeyLabel } from './dialog-keys';
import { useSession, withServices } from './services';
import { CLOSES, Hint, Lines } from './wizard-text';

export const EngineWizard = withServices(function EngineFromNodes({
  onClose,
  services,
}: {
  onClose: () => void;
  services: WizardServices;
}) {
  const [state, session] = useSession(() => services.open(engineWizard));
  const send = session.send;
  useDialogKeys(session, onClose, (key) => {
    const s = state;
    if (key.is('dialog.close')) {
      // A running command cannot be called back; a question or a typed line goes back to the menu.
      if (engineClosesOnEsc(s)) onClose();
      else send({ type: 'cancel' });
      return true;
    }
    if (s.phase === 'menu') {
      if (key.is('engine.restart')) send({ type: 'choose', action: RESTART });
      else if (key.is('engine.stop')) send({ type: 'choose', action: { kind: 'service', verb: 'stop' } });
      else if (key.is('engine.start')) send({ type: 'choose', action: { kind: 'service', verb: 'start' } });
      else if (key.is('engine.install')) send({ type: 'choose', action: { kind: 'plugin', verb: 'install' } });
      else if (key.is('engine.remove')) send({ type: 'choose', action: { kind: 'plugin', verb: 'remove' } });
      return true;
    }
    if (s.phase === 'input') {
      if (key.is('dialog.submit')) send({ type: 'submit' });
      else if (key.edit) send({ type: 'line', edit: key.edit });
      return true;
    }
    if (s.phase === 'asking') return askKeys(key, s.need, send, () => send({ type: 'cancel' }));
    if (s.phase === 'done' && s.result?.restartNeeded && key.is('engine.restart')) {
      send({ type: 'choose', action: RESTART });
      return true;
    }
    return false;
  });
  return <Body state={state} />;
});

function Body({ state: s }: { state: EngineWizardState }) {
  const hint = useHint();
  const label = useKeyLabel();
  if (s.phase === 'loading')
    return (
      <Text>
        {s.action ? `reading the engine for ${actionLabel(s.action)}…` : "reading this host's engine, its service and its plugins…"}
      </Text>
    );
  if (s.phase === 'failed') return <Text color={colourOf('red')}>{s.message}</Text>;
  if (s.phase === 'cancelled') return <Text>cancelled: nothing was run</Text>;
  // Wrapped: the service line ends with why it says "not running" of a node that answers.
  const info = <Lines lines={s.info} whole />;
  if (s.phase === 'menu')
    return (
      <>
        {info}
        <Hint>
          {hint(
            ['engine.restart', 'restart'],
            ['engine.stop', 'stop'],
            ['engine.start', 'start'],
            ['engine.install', 'install plugin'],
            ['engine.remove', 'remove plugin'],
            ['dialog.close', 'close'],
          )}
        </Hint>
      </>
    );
  if (s.phase === 'input')
    return (
      <>
        {info}
        <Text>
          {s.action?.kind === 'plugin' && s.action.verb === 'remove'
            ? 'plugin to remove: '
            : 'plugin zip (path on this host), name or https URL: '}
          <LineInput value={s.input} cursor />
        </Text>
        <Hint>{hint(['dialog.submit', 'show the command'], ['dialog.close', 'back'])}</Hint>
      </>
    );
  const tail = s.phase === 'running' ? s.output : [];
  return (
    <>
      <Text bold wrap="truncate-end">
        {s.summary ?? (s.action ? actionLabel(s.action) : '')}
      </Text>
      {/* The exact commands, whole (wrapped): the operator must be able to read every character. */}
      {s.commands.map((c, i) => (
        <Text key={`cmd-${i}`}>{`$ ${c}`}</Text>
      ))}
      <Lines lines={tail} dim />
      {s.phase === 'done' && s.result ? <Lines lines={s.result.lines} colour={colourOf(s.result.ok ? 'green' : 'red')} /> : null}
      {s.phase === 'running' ? <Hint>running… (a running command cannot be called back)</Hint> : null}
      {s.phase === 'asking' && s.need?.kind === 'type' ? (
        <>
          <TypedConfirm prompt={`takes the node out of service: type ${s.need.expected} and ${label('dialog.submit')}: `} typed={s.typed} />
          <Hint>{hint(['dialog.close', 'back'])}</Hint>
        </>
      ) : null}
      {s.phase === 'asking' && s.need?.kind === 'key' ? (
        <Hint>{hint(['dialog.confirm', 'run it'], [['dialog.decline', 'dialog.close'], 'back'])}</Hint>
      ) : null}
      {s.phase === 'done' ? (
        <Hint>{s.result?.restartNeeded ? hint(['engine.restart', 'restart the engine now'], 'other keys close') : CLOSES}</Hint>
      ) : null}
    </>
  );
}
