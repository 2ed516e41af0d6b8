// The Disk pane's text, from the recorded yellow scenario (one index under a flood-stage block).
import { describe, expect, it } from 'vitest';
import { diskRows } from '../../../src/domain/nodes/disk';
import { diskLayout, diskUsageText, readOnlyHeading, readOnlyIndices, readOnlyLine, watermarkLine } from '../../../src/domain/panes/disk';
import { scenario } from './scenario';

const y = scenario('yellow');

describe('disk pane text', () => {
  it('shows the watermarks with their max_headroom, or that the decider is off', () => {
    expect(watermarkLine(y.settings.watermarks)).toBe('watermarks  L low 85% ≤200gb  H high 90% ≤150gb  F flood 95% ≤100gb');
    expect(watermarkLine({ ...y.settings.watermarks, thresholdEnabled: false })).toMatch(/^disk threshold decider is OFF/);
  });

  it('says how much is used, free and left before the high watermark', () => {
    const [row] = diskRows(y.allocation, y.settings.watermarks);
    expect(diskUsageText(row)).toBe('used 173gb of 252gb · free 78.7gb · 53.5gb before high');
  });

  it('lists the indices under a read-only block, with the block named', () => {
    const ro = readOnlyIndices(y.blocks);
    expect(ro.map((b) => b.index)).toEqual(['service_v9_bravo']);
    expect(readOnlyLine(ro[0])).toBe('  service_v9_bravo  index.blocks.read_only_allow_delete');
    expect(readOnlyHeading(1)).toMatch(/^1 index read-only/);
    expect(readOnlyHeading(2)).toMatch(/^2 indices read-only/);
    expect(readOnlyIndices(undefined)).toEqual([]);
  });

  it('shares the body between node bars and blocked indices, at least one node', () => {
    expect(diskLayout(19, 1)).toEqual({ nodes: 7, blockLines: 2 });
    expect(diskLayout(19, 40)).toEqual({ nodes: 5, blockLines: 5 });
    expect(diskLayout(3, 0)).toEqual({ nodes: 1, blockLines: 1 });
  });
});
