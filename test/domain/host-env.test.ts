// What a host command (the corruption checklist's bash and everything it starts) inherits.
import { describe, expect, it } from 'vitest';
import { connectionSecrets, hostCommandEnv } from '../../src/domain/host-env';

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
    expect(env).toEqual({ PATH: '/usr/bin:/bin', HOME: '/root', LANG: 'C.UTF-8', ES_JAVA_HOME: '/usr/lib/jvm/java-17', SHARDECK_CONFIG_DIR: '/root/.config/shardeck' });
  });

  it('a password from a file or a prompt is still found by its value; a short one only as a whole value', () => {
    expect(hostCommandEnv(base, connectionSecrets({ password: 's3cret-Pa55word', passwordSource: '/etc/shardeck/pw' }))).not.toHaveProperty('COPY_OF_IT');
    const short = hostCommandEnv({ PATH: '/usr/bin', X: 'ab' }, connectionSecrets({ password: 'ab' }));
    expect(short).toEqual({ PATH: '/usr/bin' });
  });
});
