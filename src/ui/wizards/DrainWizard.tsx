// Drain the selected node (or undo its drain): renders domain/wizards/drain.ts (the exact new
// exclude list previewed, y sends it, then the node followed until it holds no shards, with what
// blocks the move; Esc stops following, the drain stays).
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import type { WizardServices } from '../../services/wizards';
import { drainWizard } from '../../services/wizards/drain';
import { useUi } from '../app/context';
import { RequestPreview } from '../components/RequestPreview';
import { colourOf } from '../theme';
import { useDialogKeys, useHint } from './dialog-keys';
import { useSession, withServices } from './services';
import { CLOSES, Hint, Lines, Results, Waiting } from './wizard-text';

export const DrainWizard = withServices(DrainView);

function DrainView({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const sel = useUi((s) => s.selection.nodes);
  const [state, session] = useSession(() => services.open(drainWizard, sel?.node));
  const hint = useHint();
  useDialogKeys(session, onClose, (key) => {
    if (state.phase === 'review' && key.is('dialog.confirm')) session.send({ type: 'confirm', confirmation: { by: 'key' } });
    else return false;
    return true;
  });
  if (state.phase === 'nothing')
    return (
      <Box flexDirection="column">
        <Text wrap="wrap">{state.message}</Text>
        <Hint>{CLOSES}</Hint>
      </Box>
    );
  if (state.phase !== 'review' && state.phase !== 'following' && state.phase !== 'done')
    return <Waiting phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  const { facts } = state;
  const title = facts.undo
    ? `undo the drain of node ${facts.node}: shards may go to it again`
    : `drain node ${facts.node}: every shard moves to the other nodes`;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      {state.phase === 'review' ? (
        <>
          <Text wrap="truncate-end">{facts.progress}</Text>
          <RequestPreview previews={[services.preview(facts.plan)]} />
          <Text dimColor wrap="wrap">
            {'the value before is recorded: if it is left behind, the next shardeck offers to put it back'}
          </Text>
          <Hint>{hint(['dialog.confirm', facts.undo ? 'undo the drain' : 'drain'], ['dialog.close', 'close'])}</Hint>
        </>
      ) : (
        <>
          <Results results={[state.result]} />
          {facts.undo ? null : <Text wrap="truncate-end">{state.progress}</Text>}
          {state.blockers.length ? (
            <>
              <Text color={colourOf('yellow')}>the copies left cannot move:</Text>
              <Lines lines={state.blockers.slice(0, 6).map((b) => `  ${b}`)} />
            </>
          ) : null}
          <Hint>
            {state.phase === 'following'
              ? hint(['dialog.close', 'stop following (the drain stays)'])
              : facts.undo
                ? CLOSES
                : `${CLOSES}; undo: D on the node again, or shardeck drain --undo ${facts.node}`}
          </Hint>
        </>
      )}
    </Box>
  );
}
