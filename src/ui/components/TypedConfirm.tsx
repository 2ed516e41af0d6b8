// The typed confirmation of a step that loses data: the operator types the count or the name
// asked for (the machine checks it on Enter); what is typed so far in red, with a cursor.
import React from 'react';
import { Text } from './Text';
import { LineInput } from './LineInput';

export function TypedConfirm({ prompt, typed }: { prompt: string; typed: string }) {
  return (
    <Text>
      {prompt}
      <LineInput value={typed} tone="red" cursor />
    </Text>
  );
}
