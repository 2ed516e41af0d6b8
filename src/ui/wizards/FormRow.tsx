// One field of a wizard's form: its label in a column, its value; the focused field inverted.
import React from 'react';
import { Text } from '../components/Text';

export function FormRow({
  label,
  width,
  focused,
  children,
}: {
  label: string;
  width: number;
  focused: boolean;
  children: React.ReactNode;
}) {
  return (
    <Text inverse={focused} wrap="truncate-end">
      {`${label.padEnd(width)} `}
      {children}
    </Text>
  );
}
