// What sharing adds to the console: the note prompt (n), a follower's approval of a leader's change
// (four eyes: the same preview, the same confirmation), and their keys. The panes are the same
// components for leader and follower; only where the store's data comes from differs.
import React from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { editLine } from '../../domain/console/line-edit';
import { fitText } from '../../domain/text/table';
import type { ApprovalView as Approval } from '../../store/console';
import { useConsole, useConsoleContext, useUi } from '../app/context';
import { commandFor, lineEditOf } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { useKeymap } from '../app/use-keymap';
import { colourOf } from '../theme';
import { LineInput } from './LineInput';
import { TypedConfirm } from './TypedConfirm';

/** The footer while a note is typed. */
export function NoteLine({ width }: { width: number }) {
  const note = useUi((s) => s.note ?? '');
  return (
    <Text wrap="truncate">
      <Text bold>note: </Text>
      <LineInput value={note.slice(-Math.max(1, width - 30))} cursor />
      <Text dimColor> Enter adds Esc cancels</Text>
    </Text>
  );
}

/** The change a leader asks this follower to approve, as the leader's wizard previewed it. */
export function ApprovalView({ request, width }: { request: Approval; width: number }) {
  const typed = useUi((s) => s.approvalTyped ?? '');
  const lines = request.command
    ? [`command: ${request.command}`]
    : [
        `${request.method} ${request.path}`,
        ...(request.body !== undefined ? [JSON.stringify(request.body)] : []),
        `equivalent: ${request.curl}`,
      ];
  return (
    <Box flexDirection="column" width={width}>
      <Text bold color={colourOf('yellow')}>
        {fitText(`four eyes: ${request.proposedBy} asks you to approve a change`, width)}
      </Text>
      <Box flexDirection="column" borderStyle="single" paddingX={1}>
        <Text bold wrap="truncate-end">
          {request.summary}
        </Text>
        {lines.map((l) => (
          <Text key={l} wrap="truncate-end">
            {l}
          </Text>
        ))}
        <Text wrap="truncate-end">{`target ${request.target} · ${request.risk}`}</Text>
      </Box>
      {request.cannotApprove ? (
        <Text wrap="wrap">{`you cannot approve this: ${request.cannotApprove} · Esc hides it`}</Text>
      ) : request.need.kind === 'type' ? (
        <TypedConfirm
          prompt={`this cannot be undone: type "${request.need.expected}" and Enter to approve (Esc declines): `}
          typed={typed}
        />
      ) : (
        <Text>y approves (the leader's console then sends it) · n or Esc declines</Text>
      )}
    </Box>
  );
}

/** The note prompt's keys and, on a follower, the approval's: modal while open. */
export function ShareKeys() {
  const { store, ui, share } = useConsoleContext();
  const keymap = useKeymap();
  const noting = useUi((s) => s.note !== undefined);
  const approval = useConsole((s) => (s.share?.role === 'follower' ? s.share.approval : undefined));

  useKeyLayer(
    'filter',
    (name, input) => {
      const cmd = commandFor(name, ['dialog'], keymap)?.id;
      if (cmd === 'dialog.close') ui.setState({ note: undefined });
      else if (cmd === 'dialog.submit') {
        const text = ui.getState().note ?? '';
        ui.setState({ note: undefined });
        if (text.trim()) share?.addNote?.(text);
      } else {
        const edit = lineEditOf(name, input);
        if (edit) ui.setState((s) => ({ note: editLine(s.note ?? '', edit).slice(0, 500) }));
      }
      return true;
    },
    noting,
  );

  useKeyLayer(
    'dialog',
    (name, input) => {
      const req = store.getState().share?.approval;
      if (!req) return false;
      const cmd = commandFor(name, ['dialog'], keymap)?.id;
      const done = () => ui.setState({ approvalTyped: undefined });
      if (req.cannotApprove) {
        // Four eyes: this follower only watches; Esc hides the request here, the leader still waits for someone else.
        if (cmd === 'dialog.close') store.setState((s) => ({ share: s.share ? { ...s.share, approval: undefined } : s.share }));
        return true;
      }
      if (cmd === 'dialog.close' || (req.need.kind === 'key' && cmd === 'dialog.decline')) {
        share?.decline?.(req.id);
        done();
      } else if (req.need.kind === 'key' && cmd === 'dialog.confirm') {
        share?.approve?.(req.id);
        done();
      } else if (req.need.kind === 'type' && cmd === 'dialog.submit') {
        share?.approve?.(req.id, ui.getState().approvalTyped ?? '');
        done();
      } else if (req.need.kind === 'type') {
        const edit = lineEditOf(name, input);
        if (edit) ui.setState((s) => ({ approvalTyped: editLine(s.approvalTyped ?? '', edit) }));
      }
      return true;
    },
    approval !== undefined,
  );
  return null;
}
