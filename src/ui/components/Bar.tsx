// A percentage bar with letter marks (e.g. disk watermarks L/H/F), coloured by meaning.
import React from 'react';
import { Text } from './Text';
import { barText, type Tone } from '../../domain/text/format';
import { colourOf } from '../theme';

export interface BarProps {
  percent: number;
  width: number;
  tone: Tone;
  marks?: { at: number; char: string }[];
}

export function Bar({ percent, width, tone, marks }: BarProps) {
  const { filled, empty } = barText(percent, width, marks);
  return (
    <Text>
      [<Text color={colourOf(tone)}>{filled}</Text>
      <Text dimColor>{empty}</Text>]
    </Text>
  );
}
