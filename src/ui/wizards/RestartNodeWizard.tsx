// The rolling restart of this host's node: renders domain/wizards/restart-node.ts (checks, steps, the
// node's name typed to confirm, then each step as it runs; Esc does not stop it half-way).
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import type { WizardServices } from '../../services/wizards';
import { restartNodeWizard } from '../../services/wizards/restart-node';
import { colourOf } from '../theme';
import { lineKeys, useDialogKeys, useHint } from './dialog-keys';
import { useSession, withServices } from './services';
import { CLOSES, Hint, Notes, Waiting } from './wizard-text';

export const RestartNodeWizard = withServices(RestartNodeView);

function RestartNodeView({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const [state, session] = useSession(() => services.open(restartNodeWizard));
  const hint = useHint();
  useDialogKeys(session, onClose, (key) => (state.phase === 'review' ? lineKeys(key, session.send) : state.phase === 'running'));
  if (state.phase !== 'review' && state.phase !== 'running' && state.phase !== 'done')
    return <Waiting phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  const { facts } = state;
  return (
    <Box flexDirection="column">
      <Text
        bold
      >{`restart node ${facts.node} (this host)${facts.resumeAt ? `: an unfinished restart goes on at ${facts.resumeAt}` : ''}`}</Text>
      <Notes warnings={facts.warnings} />
      {state.phase === 'review'
        ? facts.steps.map((s) => <Text key={s} wrap="truncate-end">{`  ${s}`}</Text>)
        : state.log.slice(-12).map((l, i) => (
            <Text key={i} wrap="truncate-end" color={colourOf(l.phase === 'done' ? 'green' : l.phase === 'failed' ? 'red' : undefined)}>
              {l.phase === 'start' ? `${l.id}: ${l.text}` : `  ${l.phase}: ${l.text}`}
            </Text>
          ))}
      {state.phase === 'review' ? (
        <>
          <Text>{`type ${facts.node} to restart it: ${state.typed}`}</Text>
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>{hint(['dialog.submit', 'restart'], ['dialog.close', 'close'])}</Hint>
        </>
      ) : state.phase === 'done' ? (
        <>
          <Text color={colourOf(state.ok ? 'green' : 'red')}>{`${state.ok ? 'ok' : 'FAILED'}: ${state.message}`}</Text>
          <Hint>{CLOSES}</Hint>
        </>
      ) : (
        <Hint>running: each step is audited; it ends on its own</Hint>
      )}
    </Box>
  );
}
