// The one line input: a line being typed, shown inside a <Text>. Its editing is the machine's
// (domain/console/line-edit.ts through a wizard's `line` events); this only shows it.
import React from 'react';
import { Text } from './Text';
import type { Tone } from '../../domain/text/format';
import { colourOf } from '../theme';

export function LineInput({
  value,
  placeholder = '',
  cursor = false,
  tone,
}: {
  value: string;
  placeholder?: string;
  cursor?: boolean;
  tone?: Tone;
}) {
  return (
    <>
      {tone ? (
        <Text bold color={colourOf(tone)}>
          {value}
        </Text>
      ) : (
        value
      )}
      {value ? '' : placeholder}
      {cursor ? '_' : ''}
    </>
  );
}
