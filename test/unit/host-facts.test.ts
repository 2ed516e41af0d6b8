// boundary/host-facts.ts reads this host's kernel files through a descriptor (they report a size of
// 0, so a read up to the size would read nothing): what it gives is what the kernel says.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hostFacts } from '../../src/boundary/host-facts';
import { parseHostKernel } from '../../src/domain/doctor/host';

describe('host facts', () => {
  it('swaps, swappiness and max_map_count as the kernel writes them', () => {
    const f = hostFacts();
    expect(f.maxMapCount).toBe(fs.readFileSync('/proc/sys/vm/max_map_count', 'utf8'));
    expect(f.swappiness).toBe(fs.readFileSync('/proc/sys/vm/swappiness', 'utf8'));
    expect(f.swaps).toBe(fs.readFileSync('/proc/swaps', 'utf8'));
    const k = parseHostKernel(f);
    expect(k.maxMapCount).toBe(Number(fs.readFileSync('/proc/sys/vm/max_map_count', 'utf8')));
    expect(Array.isArray(k.swaps)).toBe(true);
  });
});
