// Credentials in URLs: every shape is recognised, refused with the flags to use instead, and never
// echoed by any message that shows a URL (usage errors, ConnError, the platform URL checks).
import { describe, expect, it } from 'vitest';
import { classifyError, ConnError } from '../../src/cluster/connection';
import { resolveConnection, UsageError } from '../../src/config/connection';
import { nodeUrlProblem, urlForMessage, urlHasCredentials } from '../../src/domain/urls';
import { isLoopbackHost, platformUrlProblem, PlatformSignIn } from '../../src/platform/sign-in';

const SECRET = 's3cr3tPW';
const USER = 'opsuser';
const SHAPES = [
  `http://${USER}:${SECRET}@127.0.0.1:9200`,
  `https://${USER}@127.0.0.1:9200`,
  `http://:${SECRET}@127.0.0.1:9200`,
  `http://${USER}:${SECRET}@127.0.0.1:9200/some/path?x=1`,
  `https://${USER}%40corp:${SECRET}@es.example.com`,
  `${USER}:${SECRET}@127.0.0.1:9200`, // no scheme
  `http://${USER}:${SECRET}@[::1`, // unparseable
  `http://${USER}:${SECRET}@`, // no host
];

describe('credentials in URLs', () => {
  it.each(SHAPES)('%s is recognised, refused with the right flags, and not echoed', async (url) => {
    expect(urlHasCredentials(url)).toBe(true);
    const problem = nodeUrlProblem(url)!;
    expect(problem).toMatch(/--user/);
    expect(problem).toMatch(/--password-file/);
    expect(problem).toMatch(/--password-env/);
    expect(problem).not.toContain(SECRET);
    expect(problem).not.toContain(USER);
    await expect(resolveConnection({ url }, undefined)).rejects.toThrow(UsageError);
    await expect(resolveConnection({}, { url })).rejects.toThrow(/the URL of the profile holds credentials/);
    const shown = urlForMessage(url);
    expect(shown).not.toContain(SECRET);
    expect(shown).not.toContain(USER);
    const platform = platformUrlProblem(url, { insecureHttp: true })!;
    expect(platform).toMatch(/holds credentials/);
    expect(platform).not.toContain(SECRET);
    expect(() => new PlatformSignIn({ baseUrl: url, refreshToken: 't', stored: false, tokens: { save() {} } })).toThrow(
      /holds credentials/,
    );
  });

  it('a URL without credentials passes, and is shown as given', () => {
    for (const url of ['http://127.0.0.1:9200', 'https://es.example.com:9243/prefix', 'http://[::1]:9200']) {
      expect(urlHasCredentials(url)).toBe(false);
      expect(nodeUrlProblem(url)).toBeNull();
      expect(urlForMessage(url)).toBe(url);
    }
    expect(nodeUrlProblem('localhost:9200')).toMatch(/must start with http:\/\/ or https:\/\//);
    expect(nodeUrlProblem('not a url')).toMatch(/is not a URL/);
  });

  it('ConnError messages never carry userinfo, whatever the client put in its own message', () => {
    const url = `http://${USER}:${SECRET}@127.0.0.1:1`;
    const fake = Object.assign(new Error(`connect ECONNREFUSED via http://${USER}:${SECRET}@127.0.0.1:1/_cluster/health`), {
      code: 'ECONNREFUSED',
    });
    const weird = new Error(`something odd at http://${USER}:${SECRET}@127.0.0.1:1/`);
    for (const e of [fake, weird]) {
      const c = classifyError(e, url);
      expect(c).toBeInstanceOf(ConnError);
      expect(c.message).not.toContain(SECRET);
      expect(c.message).not.toContain(USER);
    }
  });
});

describe('plain http to the platform', () => {
  it('loopback http is allowed; http to another machine needs --insecure-http; https always passes', () => {
    for (const h of ['localhost', '127.0.0.1', '127.0.0.2', '[::1]']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['10.0.0.1', 'platform.example.com', '128.0.0.1', 'localhost.example.com']) expect(isLoopbackHost(h)).toBe(false);
    expect(platformUrlProblem('http://127.0.0.1:8080')).toBeNull();
    expect(platformUrlProblem('https://platform.example.com')).toBeNull();
    expect(platformUrlProblem('http://platform.example.com')).toMatch(/--insecure-http/);
    expect(platformUrlProblem('http://platform.example.com', { insecureHttp: true })).toBeNull();
    expect(platformUrlProblem('ftp://platform.example.com')).toMatch(/must start with http/);
  });
});
