// The list navigator (domain/console/list-nav.ts) in a component: the state as resolved against the rows
// on screen now (so the highlight never shows a stale row number), written back when resolving
// changed it, and the moves of the keymap's table keys.
import { useEffect, useRef, useState } from 'react';
import {
  MOVE_OF_COMMAND,
  navigate,
  NAV_START,
  sameNav,
  type ListNav,
  type NavEvent,
  type NavList,
  type NavMove,
} from '../../domain/console/list-nav';

export interface ListNavControl {
  /** The state for this frame: its `cursor` is the selected item's row. */
  nav: ListNav;
  /** A navigation key (a command id of the table keys, or a move); false when it is not one. */
  move(to: string): boolean;
  /** Back to the first row (a new filter, a new section). */
  reset(): void;
  /** Puts the cursor on the item of this key, if it is in the list. */
  select(key: string): void;
  /** The state as the last key left it (keys may come faster than frames). */
  current(): ListNav;
}

const ROWS = { type: 'rows' } as const;

/** Every field written, so a patch of a larger state clears `gone`, `tail` and `startIfGone` too. */
export function navFields(n: ListNav): ListNav {
  return { key: n.key, cursor: n.cursor, offset: n.offset, gone: n.gone, tail: n.tail, startIfGone: n.startIfGone };
}

/** Navigation kept in a store (the table panes keep theirs in the UI store): `get` reads it now. */
export function useStoredListNav(value: ListNav, get: () => ListNav, set: (n: ListNav) => void, list: NavList): ListNavControl {
  const nav = navigate(value, ROWS, list);
  const listNow = useRef(list);
  // eslint-disable-next-line react-hooks/refs -- the latest list, read by `send` at key time
  listNow.current = list;
  useEffect(() => {
    if (!sameNav(nav, value)) set(navFields(nav));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the resolved fields are the dependencies; `set` is stable in meaning
  }, [nav.key, nav.cursor, nav.offset, nav.gone, nav.tail, nav.startIfGone]);
  const send = (e: Exclude<NavEvent, { type: 'rows' }>) => set(navFields(navigate(get(), e, listNow.current)));
  return {
    nav,
    move: (to) => {
      const m = MOVE_OF_COMMAND[to] ?? (isMove(to) ? to : undefined);
      if (!m) return false;
      send({ type: 'move', move: m });
      return true;
    },
    reset: () => send({ type: 'reset' }),
    select: (key) => send({ type: 'select', key }),
    current: () => navigate(get(), ROWS, listNow.current),
  };
}

/** Navigation kept in the component (views, the Fleet view). */
export function useListNav(list: NavList, initial: ListNav = NAV_START): ListNavControl {
  const [value, setValue] = useState(initial);
  // From the state as it is now, not as the last render saw it: keys may come faster than frames.
  const now = useRef(value);
  return useStoredListNav(
    value,
    () => now.current,
    (n) => {
      now.current = n;
      setValue(n);
    },
    list,
  );
}

function isMove(s: string): s is NavMove {
  return s === 'up' || s === 'down' || s === 'pageUp' || s === 'pageDown' || s === 'home' || s === 'end';
}
