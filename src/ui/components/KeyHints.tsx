// The footer: the short list of keys for what is on screen, generated from the keymap.
import React from 'react';
import { Text } from './Text';
import type { KeyCommand, Scope } from '../../keys/keymap';
import { hintText } from '../../keys/hints';
import { fitText } from '../../domain/text/table';

export function KeyHints({
  keymap,
  scopes,
  width,
  paused = false,
}: {
  keymap: readonly KeyCommand[];
  scopes: readonly Scope[];
  width: number;
  paused?: boolean;
}) {
  return <Text dimColor>{fitText(hintText(keymap, scopes, width, { paused }), width)}</Text>;
}
