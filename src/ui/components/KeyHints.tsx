// The footer: the short list of keys for what is on screen, generated from the keymap.
import React from 'react';
import { Text } from './Text';
import type { KeyCommand, Scope } from '../../keys/keymap';
import { fitText } from '../../domain/table';
import { keyLabel } from '../input/keys';

export function hintText(keymap: readonly KeyCommand[], scopes: readonly Scope[]): string {
  // A key taken by a more specific scope (Tab in the index detail) is not hinted for a wider one.
  const taker = (key: string) => scopes.find((s) => keymap.some((k) => k.scope === s && k.keys.includes(key)));
  return keymap
    .filter((k) => k.hint && scopes.includes(k.scope) && taker(k.keys[0]) === k.scope)
    // The command id's last word is the short name ("pane.next" -> "next"); help has the full text.
    .map((k) => `${keyLabel(k.keys[0])} ${k.id.split('.').pop()}`)
    .join('  ');
}

export function KeyHints({ keymap, scopes, width }: { keymap: readonly KeyCommand[]; scopes: readonly Scope[]; width: number }) {
  return <Text dimColor>{fitText(hintText(keymap, scopes), width)}</Text>;
}
