// `shardeck explain INDEX SHARD` runs as balance and the doctor print it (issue 47 item 3: the advice
// `shardeck explain service_v9_orders 0` exited 64): without the copy, the shard's unassigned one.
import { describe, expect, it } from 'vitest';
import { copyToExplain, parseShardArgs } from '../../src/commands/explain';
import type { ShardRow } from '../../src/domain/types';

const row = (primary: boolean, state: string): ShardRow => ({
  index: 'service_v9_orders',
  shard: 0,
  primary,
  state,
  node: state === 'UNASSIGNED' ? null : 'n1',
  docs: null,
  storeBytes: null,
  unassignedReason: null,
  unassignedDetails: null,
});

describe('explain INDEX SHARD [primary|replica]', () => {
  it('takes two or three arguments; a wrong copy or shard is refused', () => {
    expect(parseShardArgs(['service_v9_orders', '0'])).toEqual({ ok: true, shard: { index: 'service_v9_orders', shard: 0 } });
    expect(parseShardArgs(['i', '1', 'replica'])).toEqual({ ok: true, shard: { index: 'i', shard: 1, primary: false } });
    expect(parseShardArgs(['i'])).toMatchObject({ ok: false });
    expect(parseShardArgs(['i', 'x'])).toMatchObject({ ok: false });
    expect(parseShardArgs(['i', '0', 'both'])).toMatchObject({ ok: false });
  });

  it('without the copy: the unassigned one, the primary first; all assigned: the primary', () => {
    const s = { index: 'service_v9_orders', shard: 0 };
    expect(copyToExplain([row(true, 'STARTED'), row(false, 'UNASSIGNED')], s).primary).toBe(false);
    expect(copyToExplain([row(true, 'UNASSIGNED'), row(false, 'UNASSIGNED')], s).primary).toBe(true);
    expect(copyToExplain([row(true, 'STARTED'), row(false, 'STARTED')], s).primary).toBe(true);
    expect(copyToExplain([], { ...s, primary: false }).primary).toBe(false);
  });
});
