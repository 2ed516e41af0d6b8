// What the doctor reads of each node (the shape of GET _nodes/settings,jvm,process filtered by
// DOCTOR_NODE_FILTER, as a real 8.19 node answers it), on plain values: whether HTTP is TLS, the
// temporary folder the JVM was started with, the Java version and the log file.
import { describe, expect, it } from 'vitest';
import { javaMajor, nodeLogFile, parseDoctorNodes } from '../../../src/domain/doctor/node';

const node = (settings: unknown, jvm: unknown = {}) => ({
  nodes: {
    abc: {
      name: 'es-1',
      version: '8.19.21',
      ...(settings === undefined ? {} : { settings }),
      jvm: { mem: { heap_init_in_bytes: 512, heap_max_in_bytes: 1024 }, ...(jvm as object) },
    },
  },
});

describe('doctor node facts', () => {
  it('HTTP TLS: on, off as the string the node sends, off when security says nothing, unknown without settings', () => {
    const tls = (settings: unknown) => parseDoctorNodes(node(settings), {})[0].httpTls;
    expect(tls({ xpack: { security: { http: { ssl: { enabled: 'true' } } } } })).toBe(true);
    expect(tls({ xpack: { security: { http: { ssl: { enabled: 'false' } } } } })).toBe(false);
    expect(tls({ path: { home: '/usr/share/elasticsearch' } })).toBe(false);
    expect(tls({ xpack: { security: { http: {} } } })).toBe(false);
    expect(tls({ xpack: {} })).toBe(false);
    expect(tls(undefined)).toBeNull();
  });

  it('the last -Djava.io.tmpdir wins; RAM only when the stats say a number', () => {
    const [n] = parseDoctorNodes(
      node({}, { input_arguments: ['-Djava.io.tmpdir=/tmp/a', '-Xms1g', '-Djava.io.tmpdir=/tmp/elasticsearch-1'] }),
      { nodes: { abc: { os: { mem: { total_in_bytes: 8e9 } } } } },
    );
    expect(n).toMatchObject({ tmpDir: '/tmp/elasticsearch-1', ramBytes: 8e9, heapInitBytes: 512, heapMaxBytes: 1024 });
    expect(parseDoctorNodes(node({}), { nodes: { abc: { os: { mem: { total_in_bytes: '8e9' } } } } })[0]).toMatchObject({
      tmpDir: null,
      ramBytes: null,
    });
  });

  it('the Java major of old and new version strings, and the log file only with both its parts', () => {
    expect([javaMajor('17.0.15'), javaMajor('1.8.0_292'), javaMajor('21'), javaMajor(undefined), javaMajor('x')]).toEqual([
      17,
      8,
      21,
      null,
      null,
    ]);
    expect(nodeLogFile({ logs: '/var/log/elasticsearch//', clusterName: 'prod' })).toBe('/var/log/elasticsearch/prod.log');
    expect(nodeLogFile({ logs: '/var/log/elasticsearch' })).toBeNull();
  });
});
