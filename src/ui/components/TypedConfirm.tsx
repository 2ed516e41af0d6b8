// The typed confirmation of a step that loses data: the operator types the count or the name
// asked for (the machine checks it on Enter); what is typed so far in red, with a cursor. The
// question starts with the profile's label, as the preview does (issue 44 item 4): the answer is
// given to the cluster it names.
import React from 'react';
import { useStore } from 'zustand';
import { Text } from './Text';
import { LineInput } from './LineInput';
import { useOptionalConsoleContext } from '../app/context';
import { badgeText, type ProfileBadge } from '../../domain/console/profile-badge';
import type { ConsoleStore } from '../../store/console';
import { colourOf } from '../theme';

export function TypedConfirm({ prompt, typed }: { prompt: string; typed: string }) {
  const ctx = useOptionalConsoleContext();
  return (
    <Text>
      {ctx ? <Label store={ctx.store} /> : null}
      {prompt}
      <LineInput value={typed} tone="red" cursor />
    </Text>
  );
}

/** The label in its colour, reversed as on the header; nothing for a profile without one. */
function Label({ store }: { store: ConsoleStore }) {
  const badge: ProfileBadge | undefined = useStore(store, (s) => s.connection.badge);
  if (!badge) return null;
  const colour = colourOf(badge.colour);
  return (
    <>
      <Text bold inverse={colour !== undefined} color={colour}>
        {badgeText(badge)}
      </Text>{' '}
    </>
  );
}
