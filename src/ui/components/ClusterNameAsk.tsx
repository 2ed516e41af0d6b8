// A production profile's extra question before a change that loses data (the Guard asks it,
// services/guard.ts productionCheck): the cluster's name, typed over the wizard that waits for it.
// Enter gives what was typed, Esc declines (the Guard then refuses and nothing is sent).
import React from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { editLine } from '../../domain/console/line-edit';
import { badgeText, type ProfileBadge } from '../../domain/console/profile-badge';
import { useConsoleContext, useUi } from '../app/context';
import { commandFor, lineEditOf } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { useKeymap } from '../app/use-keymap';
import { colourOf } from '../theme';
import { TypedConfirm } from './TypedConfirm';
import type { UiStore } from '../state';

/** The Guard's askClusterName for the console: opens the question and resolves with the answer. */
export function askClusterNameIn(ui: UiStore) {
  return (q: { badge: ProfileBadge; summary: string }): Promise<string | undefined> =>
    new Promise((resolve) =>
      ui.setState({
        clusterName: {
          badge: q.badge,
          summary: q.summary,
          typed: '',
          answer: (text) => {
            ui.setState({ clusterName: undefined });
            resolve(text);
          },
        },
      }),
    );
}

const CLUSTER_NAME_PROMPT = "type the cluster's name to go on: ";

export function ClusterNameView({ width }: { width: number }) {
  const ask = useUi((s) => s.clusterName);
  if (!ask) return null;
  const colour = colourOf(ask.badge.colour);
  return (
    <Box flexDirection="column" flexShrink={0} width={width} borderStyle="double" borderColor={colour} paddingX={1}>
      <Text bold wrap="truncate-end">
        <Text bold inverse={colour !== undefined} color={colour}>
          {badgeText(ask.badge)}
        </Text>
        {' production cluster: this change loses data'}
      </Text>
      <Text wrap="truncate-end">{ask.summary}</Text>
      <TypedConfirm
        prompt={CLUSTER_NAME_PROMPT}
        typed={ask.typed.slice(-Math.max(1, width - CLUSTER_NAME_PROMPT.length - 6 - badgeText(ask.badge).length - 1))}
      />
      <Text dimColor>Enter goes on · Esc cancels (nothing is sent)</Text>
    </Box>
  );
}

/** Its keys: every key while the question is open (modal, above the wizard that waits). */
export function ClusterNameKeys() {
  const { ui } = useConsoleContext();
  const keymap = useKeymap();
  const open = useUi((s) => s.clusterName !== undefined);
  useKeyLayer(
    'dialog',
    (name, input) => {
      const ask = ui.getState().clusterName;
      if (!ask) return false;
      const cmd = commandFor(name, ['dialog'], keymap)?.id;
      if (cmd === 'dialog.close') ask.answer(undefined);
      else if (cmd === 'dialog.submit') ask.answer(ask.typed);
      else {
        const edit = lineEditOf(name, input);
        if (edit) ui.setState({ clusterName: { ...ask, typed: editLine(ask.typed, edit).slice(0, 200) } });
      }
      return true;
    },
    open,
  );
  return null;
}
