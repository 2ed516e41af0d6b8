// The footer's short list of keys, from the keymap: the keys of what is on screen first (each
// pane's own actions: R replicas, e explain...), then the hinted keys of the wider scopes, as
// many as fit; "q quit" and "? help" (where every key is listed) always stay.
import { keyLabel, type KeyCommand, type Scope } from './keymap';

/** What the footer's words depend on besides the keymap: polling paused turns "p pause" into "p resume" (issue 47). */
export interface HintState {
  paused?: boolean;
}

/** The word after the key: the row's `short`, else the command id's last word ("pane.next" -> "next"). */
export function hintWord(k: KeyCommand, state: HintState = {}): string {
  if (k.id === 'poll.pause' && state.paused) return 'resume';
  return k.short ?? k.id.split('.').pop()!;
}

const SHARED: readonly Scope[] = ['global', 'list', 'table', 'dialog'];

export function hintText(keymap: readonly KeyCommand[], scopes: readonly Scope[], width = Infinity, state: HintState = {}): string {
  // A key taken by a more specific scope (Tab in the index detail) is not hinted for a wider one.
  const taker = (key: string) => scopes.find((s) => keymap.some((k) => k.scope === s && k.keys.includes(key)));
  const live = keymap.filter((k) => scopes.includes(k.scope) && taker(k.keys[0]) === k.scope);
  // By priority: the pane's actions that change something, its hinted keys, the table's (filter),
  // its other keys, then the global ones.
  const own = live.filter((k) => !SHARED.includes(k.scope));
  const shared = live.filter((k) => SHARED.includes(k.scope) && k.hint);
  const ordered = [
    ...own.filter((k) => k.dangerous),
    ...own.filter((k) => !k.dangerous && k.hint),
    ...shared.filter((k) => k.scope !== 'global'),
    ...own.filter((k) => !k.dangerous && !k.hint),
    ...shared.filter((k) => k.scope === 'global'),
  ];
  const text = (k: KeyCommand) => `${keyLabel(k.keys[0])} ${hintWord(k, state)}`;
  // Quit and help always stay, at the end.
  const kept = ordered.filter((k) => k.id === 'quit' || k.id === 'help');
  let used = kept.reduce((n, k) => n + text(k).length + 2, 0);
  const chosen = new Set<KeyCommand>(kept);
  for (const k of ordered) {
    if (chosen.has(k)) continue;
    const add = text(k).length + 2;
    if (used + add - 2 > width) continue;
    chosen.add(k);
    used += add;
  }
  const last = (k: KeyCommand) => (k.id === 'quit' ? 1 : k.id === 'help' ? 2 : 0);
  return ordered
    .filter((k) => chosen.has(k))
    .sort((a, b) => last(a) - last(b))
    .map(text)
    .join('  ');
}
