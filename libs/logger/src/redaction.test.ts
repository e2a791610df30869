import { parse } from 'node:querystring';
import { REDACTED, redactPath, redactQuery, redactText, redactUrl } from './redaction';

const SECRET = 'hgr_Secret123';

describe('redactPath: the credential segment of each route shape', () => {
  it.each([
    [`/debuginfod/${SECRET}/buildid/abc/debuginfo`, `/debuginfod/${REDACTED}/buildid/abc/debuginfo`],
    [`/DEBUGINFOD/${SECRET}/BuildId/abc/debuginfo/`, `/DEBUGINFOD/${REDACTED}/BuildId/abc/debuginfo/`],
    [`/apple/${SECRET}/dsym/UUID.zip`, `/apple/${REDACTED}/dsym/UUID.zip`],
    [`/apple/${SECRET}/unified/ab/${'c'.repeat(30)}/debuginfo`, `/apple/${REDACTED}/unified/ab/${'c'.repeat(30)}/debuginfo`],
    [`/breakpad/${SECRET}/app.pdb/ID1/app.sym`, `/breakpad/${REDACTED}/app.pdb/ID1/app.sym`],
    [`/symbols/${SECRET}/app.pdb/GUID1/app.pdb`, `/symbols/${REDACTED}/app.pdb/GUID1/app.pdb`],
    [`/channels/${SECRET}`, `/channels/${REDACTED}`],
    [`/channels/${SECRET}/unlock`, `/channels/${REDACTED}/unlock`],
    [`/%63hannels/${SECRET}`, `/%63hannels/${REDACTED}`],
  ])('when %s is logged, then its credential is not', (path, expected) => {
    expect(redactPath(path)).toBe(expected);
  });

  it('when a path under a credential prefix has no route shape, then everything after the prefix goes', () => {
    for (const path of [`/debuginfod/${SECRET}`, `/debuginfod/${SECRET}/x`, `/breakpad/${SECRET}/a`, `/apple/${SECRET}/other/x`, `/channels/${SECRET}/x/y`, `/symbols//${SECRET}/a/b`]) {
      expect(redactPath(path)).not.toContain(SECRET);
    }
  });

  it('when a route shape holds no credential, then the path is kept as it is', () => {
    for (const path of ['/debuginfod/buildid/abc/debuginfo', '/apple/dsym/UUID.zip', '/breakpad/app.pdb/ID1/app.sym', '/symbols/a.pdb/G/a.pdb', '/api/releases/1/download', '/releases/3']) {
      expect(redactPath(path)).toBe(path);
    }
  });
});

describe('redactQuery: every parameter the router could read as a secret', () => {
  // What the gateway's router reads (express 5's 'simple' parser is node:querystring).
  expect(parse('token+=x')).toEqual({ 'token ': 'x' });

  it.each([
    `token=${SECRET}`,
    `token[a]=${SECRET}`,
    `token%5Bx%5D=${SECRET}`,
    `token+=${SECRET}`,
    `%74oken=${SECRET}`,
    `a=1;token=${SECRET}`,
    `channel_key[]=${SECRET}`,
    `channel%5Fkey=${SECRET}`,
    `page=1&token=a&token=${SECRET}`,
    `token=${SECRET}%E0%A4%A`,
    `to%E0%A4%Aken=1&password=${SECRET}`,
    `x%255Btoken%255D=${SECRET}`,
    `X-Amz-Signature=${SECRET}&X-Amz-Credential=${SECRET}`,
    `t=${SECRET}`,
    `tester=4&key=${SECRET}`,
    `PASSWORD=${SECRET}`,
  ])('when the query is %s, then the secret is not kept', (query) => {
    const redacted = redactQuery(query);
    expect(redacted).not.toContain(SECRET);
    expect(redacted).toContain(REDACTED);
  });

  it('when only plain parameters are sent, then the query is kept', () => {
    expect(redactQuery('page=2&per_page=10')).toBe('page=2&per_page=10');
    expect(redactQuery('token=a&page=2')).toBe(`token=${REDACTED}&page=2`);
  });

  it('when there are more pairs than the parser reads, then the whole query goes', () => {
    expect(redactQuery(`${'a=1&'.repeat(1000)}token=${SECRET}`)).toBe(REDACTED);
  });
});

describe('redactUrl and redactText', () => {
  it('when an absolute URL holds credentials, then path, query and user info are redacted', () => {
    expect(redactUrl(`http://user:${SECRET}@host:9000/channels/${SECRET}?token=${SECRET}#x`)).toBe(`http://host:9000/channels/${REDACTED}?token=${REDACTED}`);
  });

  it('when an error message carries URLs, then each is redacted', () => {
    const text = redactText(`Cannot GET /debuginfod/${SECRET}/buildid/x (fetching http://s3:9000/b/k?X-Amz-Signature=${SECRET})`);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('Cannot GET /debuginfod/');
  });
});
