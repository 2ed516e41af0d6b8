// What a host command (the corruption checklist's bash and everything it starts) inherits.
import { describe, expect, it } from 'vitest';
import { connectionSecrets, defaultConfDir, hostCommandEnv, hostEnv, parseEnvFile, SYSTEM_PATH } from '../../src/domain/host/host-env';

describe('the environment of a host command', () => {
  const base = {
    PATH: '/usr/bin:/bin',
    HOME: '/root',
    LANG: 'C.UTF-8',
    ES_JAVA_HOME: '/usr/lib/jvm/java-17',
    OPS_ES_PW: 's3cret-Pa55word',
    COPY_OF_IT: 's3cret-Pa55word',
    IN_A_URL: 'https://elastic:s3cret-Pa55word@es:9200',
    ELASTIC_PASSWORD: 'x',
    SHARDECK_PLATFORM_TOKEN: 'tok',
    SHARDECK_REFRESH_TOKEN: 'tok2',
    GITHUB_TOKEN: 'ghp',
    AWS_SECRET_ACCESS_KEY: 'k',
    SHARDECK_CONFIG_DIR: '/root/.config/shardeck',
  };

  it('keeps what commands need and drops the password by its variable, by its value, and every secret-named variable', () => {
    const env = hostCommandEnv(base, connectionSecrets({ password: 's3cret-Pa55word', passwordSource: '$OPS_ES_PW' }));
    expect(env).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/root',
      LANG: 'C.UTF-8',
      ES_JAVA_HOME: '/usr/lib/jvm/java-17',
      SHARDECK_CONFIG_DIR: '/root/.config/shardeck',
    });
  });

  it('a password from a file or a prompt is still found by its value; a short one only as a whole value', () => {
    expect(hostCommandEnv(base, connectionSecrets({ password: 's3cret-Pa55word', passwordSource: '/etc/shardeck/pw' }))).not.toHaveProperty(
      'COPY_OF_IT',
    );
    const short = hostCommandEnv({ PATH: '/usr/bin', X: 'ab' }, connectionSecrets({ password: 'ab' }));
    expect(short).toEqual({ PATH: '/usr/bin' });
  });
});

describe('the allow-listed environment of a host command (issue 31.8, 23.6)', () => {
  it("keeps only the locale, home and terminal; PATH is the system's; ES_* come from the package configuration only", () => {
    const env = hostEnv(
      {
        PATH: '/home/op/bin:/usr/bin',
        HOME: '/root',
        LANG: 'C.UTF-8',
        LC_ALL: 'C',
        https_proxy: 'http://op:proxy-pw@proxy:3128',
        DATABASE_URL: 'postgres://u:db-pw@db/x',
        ES_PATH_CONF: '/home/es/evil-config',
        ES_JAVA_HOME: '/home/es/evil-jdk',
        LD_PRELOAD: '/tmp/x.so',
        TERM: 'xterm',
      },
      { ES_PATH_CONF: '/etc/elasticsearch', ES_JAVA_OPTS: '-Xms1g', NOT_ES: 'x' },
      { envNames: [], values: [] },
    );
    expect(env).toEqual({
      HOME: '/root',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      TERM: 'xterm',
      ES_PATH_CONF: '/etc/elasticsearch',
      ES_JAVA_OPTS: '-Xms1g',
      PATH: SYSTEM_PATH,
    });
  });

  it('a package environment file is read as data: comments skipped, quotes removed, nothing expanded', () => {
    expect(
      parseEnvFile(
        '# comment\nES_PATH_CONF=/etc/elasticsearch\nES_JAVA_OPTS="-Xms1g -Xmx1g"\n  ES_STARTUP_SLEEP_TIME=5\nX=$(touch /tmp/p)\n#ES_JAVA_HOME=/x\n',
      ),
    ).toEqual({
      ES_PATH_CONF: '/etc/elasticsearch',
      ES_JAVA_OPTS: '-Xms1g -Xmx1g',
      ES_STARTUP_SLEEP_TIME: '5',
      X: '$(touch /tmp/p)',
    });
  });

  it("the default config folder: the package's, or the tarball's <home>/config", () => {
    expect(defaultConfDir('/usr/share/elasticsearch')).toBe('/etc/elasticsearch');
    expect(defaultConfDir('/opt/es-8.19/')).toBe('/opt/es-8.19/config');
    expect(defaultConfDir(undefined)).toBe('/etc/elasticsearch');
  });
});
