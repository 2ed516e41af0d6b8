// The doctor reads files on the node's host that others may have replaced: a FIFO or /dev/zero in
// place of a jvm.options.d file or the log must never hang it or make it read forever.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jvmOptionFiles, readLog } from '../../src/services/doctor';

let conf: string;
beforeEach(() => {
  conf = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-doctor-files-'));
  fs.writeFileSync(path.join(conf, 'jvm.options'), '-Xms1g\n-Xmx1g\n');
  fs.mkdirSync(path.join(conf, 'jvm.options.d'));
});
afterEach(() => fs.rmSync(conf, { recursive: true, force: true }));

describe('doctor file reads', () => {
  it('a FIFO or a link to /dev/zero among jvm.options.d is skipped at once; regular files are read', () => {
    const d = path.join(conf, 'jvm.options.d');
    expect(spawnSync('mkfifo', [path.join(d, 'a-fifo.options')]).status).toBe(0);
    fs.symlinkSync('/dev/zero', path.join(d, 'b-zero.options'));
    fs.writeFileSync(path.join(d, 'c-heap.options'), '-Xmx2g\n');
    expect(jvmOptionFiles(conf).map((f) => path.basename(f.path))).toEqual(['jvm.options', 'c-heap.options']);
  });

  it('a log that is a FIFO or /dev/zero is reported as not a log, not read', () => {
    const fifo = path.join(conf, 'es.log');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(readLog(fifo)).toEqual({ file: fifo, notHere: `${fifo} is a FIFO, not a log file: not read` });
    expect(readLog('/dev/zero')).toEqual({ file: '/dev/zero', notHere: '/dev/zero is a device, not a log file: not read' });
    const real = path.join(conf, 'real.log');
    fs.writeFileSync(real, '[2026-11-25T10:00:00,000][WARN ][o.e.c.r.a.DiskThresholdMonitor] [n1] high disk watermark exceeded\n');
    expect(readLog(real)).not.toHaveProperty('notHere');
  });
});
