// CONTRACT §1: every variable has a default or is validated at start; a bad value
// is a ConfigError naming the variable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import Fastify from 'fastify';
import { ConfigError, loadConfig, type TrustProxyHops } from '../../src/config.ts';
import { isOn } from '../../src/kernel-config.ts';

/** Asserts that env makes loadConfig throw a ConfigError naming `variable`. */
function refuses(env: Record<string, string>, variable: string) {
  assert.throws(
    () => loadConfig(env),
    (e: unknown) => e instanceof ConfigError && e.message.startsWith(variable),
    `${JSON.stringify(env)} should be refused naming ${variable}`,
  );
}

test('defaults: 127.0.0.1:8080, PUBLIC_URL http://localhost:8080, embedded PGlite under ./data', () => {
  const c = loadConfig({});
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.port, 8080);
  assert.equal(c.publicUrl, 'http://localhost:8080');
  assert.equal(c.dataDir, path.resolve('./data'));
  assert.deepEqual(c.database, { kind: 'pglite-file', dir: path.join(path.resolve('./data'), 'pglite') });
  assert.equal(c.seedFile, undefined);
  assert.equal(c.operatorToken, undefined);
  assert.equal(c.sandbox, false);
  assert.equal(c.urnNamespace, 'svc');
  assert.equal(c.logLevel, 'info');
  assert.equal(c.uploadTtlSeconds, 24 * 3600);
  assert.equal(c.uploadUrlTtlSeconds, 3600);
  assert.equal(c.storageUrl, undefined);
  assert.equal(c.storagePublicUrl, undefined);
  assert.equal(c.trustProxy, false, 'X-Forwarded-For is not trusted unless told');
});

test('PUBLIC_URL follows PORT when unset: http://localhost:<PORT>, so issuer, audience and links name the port served', () => {
  assert.equal(loadConfig({ PORT: '18083' }).publicUrl, 'http://localhost:18083');
  assert.equal(loadConfig({ PORT: '18083', PUBLIC_URL: '' }).publicUrl, 'http://localhost:18083');
  assert.equal(loadConfig({ PORT: '18083', PUBLIC_URL: 'https://scan.example.com' }).publicUrl, 'https://scan.example.com');
});

test('empty values count as unset', () => {
  const c = loadConfig({
    HOST: '', PORT: '', PUBLIC_URL: '', DATA_DIR: '', DATABASE_URL: '', SEED_FILE: '', OPERATOR_TOKEN: '',
    SANDBOX: '', URN_NAMESPACE: '', LOG_LEVEL: '', UPLOAD_TTL: '', UPLOAD_URL_TTL: '', STORAGE_URL: '',
    STORAGE_PUBLIC_URL: '', TRUST_PROXY: '',
  });
  assert.deepEqual(c, loadConfig({}));
});

test('every variable is read', () => {
  const c = loadConfig({
    HOST: '0.0.0.0',
    PORT: '9000',
    PUBLIC_URL: 'https://scan.example.com/base/',
    DATA_DIR: '/tmp/sb-data',
    SEED_FILE: 'seed.json',
    OPERATOR_TOKEN: 'operator-secret-of-24-characters',
    SANDBOX: '1',
    URN_NAMESPACE: 'acme-1',
    LOG_LEVEL: 'warn',
    UPLOAD_TTL: '600',
    UPLOAD_URL_TTL: '120',
    STORAGE_URL: 's3://bucket?endpoint=http://127.0.0.1:9000&region=us-east-1&forcePathStyle=true',
    STORAGE_PUBLIC_URL: 'http://files.example.com',
  });
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.port, 9000);
  assert.equal(c.publicUrl, 'https://scan.example.com/base', 'trailing slash removed');
  assert.equal(c.dataDir, '/tmp/sb-data');
  assert.deepEqual(c.database, { kind: 'pglite-file', dir: '/tmp/sb-data/pglite' });
  assert.equal(c.seedFile, path.resolve('seed.json'));
  assert.equal(c.operatorToken, 'operator-secret-of-24-characters');
  assert.equal(c.sandbox, true);
  assert.equal(c.urnNamespace, 'acme-1');
  assert.equal(c.logLevel, 'warn');
  assert.equal(c.uploadTtlSeconds, 600);
  assert.equal(c.uploadUrlTtlSeconds, 120);
  assert.match(c.storageUrl!, /^s3:\/\/bucket\?/);
  assert.equal(c.storagePublicUrl, 'http://files.example.com');
  const azure = loadConfig({ STORAGE_URL: 'azure://scans', AZURE_STORAGE_CONNECTION_STRING: 'UseDevelopmentStorage=true' });
  assert.equal(azure.storageUrl, 'azure://scans');
  assert.equal(azure.azureConnectionString, 'UseDevelopmentStorage=true');
  assert.throws(() => loadConfig({ STORAGE_URL: 'azure://scans' }), /AZURE_STORAGE_CONNECTION_STRING is required/);
});

test('DATABASE_URL selects the engine: postgres:// a server, memory: in-memory PGlite', () => {
  assert.deepEqual(loadConfig({ DATABASE_URL: 'memory:' }).database, { kind: 'pglite-memory' });
  assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/x' }).database, {
    kind: 'postgres',
    url: 'postgres://u@db:5432/x',
  });
  assert.deepEqual(loadConfig({ DATABASE_URL: 'postgresql://db/x' }).database, {
    kind: 'postgres',
    url: 'postgresql://db/x',
  });
});

test('PORT must be an integer from 0 to 65535', () => {
  for (const bad of ['abc', '-1', '65536', '80.5', ' 80', '+80', '1e3', '99999999999999999999']) refuses({ PORT: bad }, 'PORT');
  assert.equal(loadConfig({ PORT: '0' }).port, 0);
  assert.equal(loadConfig({ PORT: '65535' }).port, 65535);
});

test('PUBLIC_URL must be an absolute http(s) URL without query or fragment', () => {
  for (const bad of ['localhost:8080', 'ftp://x.test', 'not a url', 'http://x.test/?a=1', 'http://x.test/#f', '/relative']) {
    refuses({ PUBLIC_URL: bad }, 'PUBLIC_URL');
  }
});

test('DATABASE_URL must be postgres://… or memory:', () => {
  for (const bad of ['mysql://u@h/db', 'memory', 'postgres://', 'postgres://u@h:notaport/db', 'sqlite:x.db', 'postgres://h/ db']) {
    refuses({ DATABASE_URL: bad }, 'DATABASE_URL');
  }
});

test('a refused DATABASE_URL is named without echoing its password', () => {
  assert.throws(
    () => loadConfig({ DATABASE_URL: 'postgres://scan:s3cr3t-pass@db:notaport/x' }),
    (e: unknown) => e instanceof ConfigError && /^DATABASE_URL/.test(e.message) && !e.message.includes('s3cr3t-pass'),
  );
});

test('SANDBOX takes 1/true/yes/on or 0/false/no/off', () => {
  for (const v of ['1', 'true', 'YES', 'on']) assert.equal(loadConfig({ SANDBOX: v }).sandbox, true, v);
  for (const v of ['0', 'false', 'No', 'off']) assert.equal(loadConfig({ SANDBOX: v }).sandbox, false, v);
  for (const bad of ['2', 'maybe', 'enabled']) refuses({ SANDBOX: bad }, 'SANDBOX');
});

test('GC_COUNT_EXTERNAL_MEMORY is off by default and takes the yes/no spellings main.ts acts on', () => {
  assert.equal(loadConfig({}).gcCountExternalMemory, false);
  for (const v of ['1', 'true', 'YES', 'on']) {
    assert.equal(loadConfig({ GC_COUNT_EXTERNAL_MEMORY: v }).gcCountExternalMemory, true, v);
    assert.equal(isOn(v), true, v);
  }
  for (const v of ['0', 'false', 'No', 'off']) {
    assert.equal(loadConfig({ GC_COUNT_EXTERNAL_MEMORY: v }).gcCountExternalMemory, false, v);
    assert.equal(isOn(v), false, v);
  }
  for (const bad of ['2', 'maybe']) refuses({ GC_COUNT_EXTERNAL_MEMORY: bad }, 'GC_COUNT_EXTERNAL_MEMORY');
});

test('URN_NAMESPACE is 1-32 lower-case letters, digits and hyphens', () => {
  for (const bad of ['Svc', 'a:b', '-svc', 'a'.repeat(33), 'sv c', 'svc/x']) refuses({ URN_NAMESPACE: bad }, 'URN_NAMESPACE');
  assert.equal(loadConfig({ URN_NAMESPACE: 'a'.repeat(32) }).urnNamespace, 'a'.repeat(32));
});

test('OPERATOR_TOKEN needs at least 24 characters, and a refusal does not echo it', () => {
  for (const short of ['short', 'x'.repeat(23)]) {
    assert.throws(
      () => loadConfig({ OPERATOR_TOKEN: short }),
      (e: unknown) =>
        e instanceof ConfigError && e.message.startsWith('OPERATOR_TOKEN') && e.message.includes('24') && !e.message.includes(short),
    );
  }
  assert.equal(loadConfig({ OPERATOR_TOKEN: 'x'.repeat(24) }).operatorToken, 'x'.repeat(24));
});

test('LOG_LEVEL, UPLOAD_TTL, UPLOAD_URL_TTL, STORAGE_URL and STORAGE_PUBLIC_URL are validated', () => {
  refuses({ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL');
  refuses({ UPLOAD_TTL: '10' }, 'UPLOAD_TTL');
  refuses({ UPLOAD_TTL: '1h' }, 'UPLOAD_TTL');
  refuses({ UPLOAD_URL_TTL: '0' }, 'UPLOAD_URL_TTL');
  refuses({ UPLOAD_URL_TTL: '99999999' }, 'UPLOAD_URL_TTL');
  for (const bad of ['ftp://bucket', 's3://', 'bucket', 'gs://bucket', 'azure:///x']) refuses({ STORAGE_URL: bad }, 'STORAGE_URL');
  refuses({ STORAGE_PUBLIC_URL: 'files.example.com' }, 'STORAGE_PUBLIC_URL');
});

test('TRUST_PROXY: unset or 0/false trusts no proxy; a number is that many hops; true trusts every hop', () => {
  for (const v of ['0', 'false', 'NO', 'off', ' ']) assert.equal(loadConfig({ TRUST_PROXY: v }).trustProxy, false, v);
  const one = loadConfig({ TRUST_PROXY: '1' }).trustProxy as TrustProxyHops;
  assert.equal(one.hops, 1, 'TRUST_PROXY=1: the one proxy in front');
  assert.deepEqual([one('10.0.0.1', 0), one('10.0.0.2', 1)], [true, false]);
  assert.equal((loadConfig({ TRUST_PROXY: '3' }).trustProxy as TrustProxyHops).hops, 3);
  for (const v of ['true', 'Yes', 'on']) assert.equal(loadConfig({ TRUST_PROXY: v }).trustProxy, true, v);
});

test('TRUST_PROXY: a comma list of IPv4/IPv6 addresses, CIDR ranges and proxy-addr names', () => {
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy, [
    '10.0.0.0/8',
    '127.0.0.1',
    '::1',
    'fd00::/8',
    'loopback',
  ]);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '192.168.1.10' }).trustProxy, ['192.168.1.10']);
});

test('TRUST_PROXY refuses anything else with a message naming the variable and the bad entry', () => {
  for (const bad of ['maybe', '10.0.0.0/33', '::1/129', '10.0.0/8', '10.0.0.1,', 'proxy.internal', '1.2.3.4/x', '-1', '101', '10.0.0.0/8;1.2.3.4']) {
    refuses({ TRUST_PROXY: bad }, 'TRUST_PROXY');
  }
  assert.throws(
    () => loadConfig({ TRUST_PROXY: '10.0.0.1,proxy.internal' }),
    (e: unknown) => e instanceof ConfigError && e.message.includes('"proxy.internal" is not an IP address or CIDR range'),
  );
});

test('config.trustProxy, given to Fastify as trustProxy, picks the client address from X-Forwarded-For as documented', async () => {
  const xff = '6.6.6.6, 203.0.113.9, 10.0.0.7'; // forged by the client, the client, an inner proxy
  const clientOf = async (value: string) => {
    const app = Fastify({ trustProxy: loadConfig({ TRUST_PROXY: value }).trustProxy });
    app.get('/', async (req) => req.ip);
    try {
      return (await app.inject({ url: '/', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': xff } })).body;
    } finally {
      await app.close();
    }
  };
  assert.equal(await clientOf(''), '127.0.0.1', 'unset: the socket peer');
  assert.equal(await clientOf('127.0.0.1,10.0.0.0/8'), '203.0.113.9', 'the first untrusted address from the right');
  assert.equal(await clientOf('loopback'), '10.0.0.7');
  assert.equal(await clientOf('2'), '203.0.113.9', 'two hops: the peer and the inner proxy');
  assert.equal(await clientOf('1'), '10.0.0.7');
  assert.equal(await clientOf('true'), '6.6.6.6', 'every hop: the leftmost, which the client controls');
});

test('MAX_CONNECTIONS_PER_ADDRESS (100; 0 off), WEBHOOKS_SENDS_PER_ACCOUNT (4) and WEBHOOKS_TARGET_PORTS (a port list or any) are read and validated', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.maxConnectionsPerAddress, 100);
  assert.equal(defaults.webhooks.sendsPerAccount, 4);
  assert.deepEqual(defaults.webhooks.targetPorts, []);
  const set = loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0', WEBHOOKS_SENDS_PER_ACCOUNT: '2', WEBHOOKS_TARGET_PORTS: '8443, 9000,8443' });
  assert.equal(set.maxConnectionsPerAddress, 0);
  assert.equal(set.webhooks.sendsPerAccount, 2);
  assert.deepEqual(set.webhooks.targetPorts, [8443, 9000]);
  assert.equal(loadConfig({ WEBHOOKS_TARGET_PORTS: 'ANY' }).webhooks.targetPorts, 'any');
  assert.throws(() => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '-1' }), /MAX_CONNECTIONS_PER_ADDRESS="-1" is invalid/);
  assert.throws(() => loadConfig({ WEBHOOKS_SENDS_PER_ACCOUNT: '0' }), /WEBHOOKS_SENDS_PER_ACCOUNT="0" is invalid/);
  for (const bad of ['0', '65536', '80;443', 'http']) {
    assert.throws(() => loadConfig({ WEBHOOKS_TARGET_PORTS: bad }), /WEBHOOKS_TARGET_PORTS=.* is invalid: expected a comma-separated list of ports/, bad);
  }
});

test('INVITE_*: the invitation caps default to 100 per request, 500 per account a day, 3 mails per recipient a day; bad values stop the start naming the variable', () => {
  assert.deepEqual(loadConfig({}).invitations, { maxPerRequest: 100, maxPerAccountPerDay: 500, mailsPerRecipientPerDay: 3 });
  assert.deepEqual(
    loadConfig({ INVITE_MAX_PER_REQUEST: '10', INVITE_MAX_PER_ACCOUNT_DAY: '20', INVITE_MAILS_PER_RECIPIENT_DAY: '1' }).invitations,
    { maxPerRequest: 10, maxPerAccountPerDay: 20, mailsPerRecipientPerDay: 1 },
  );
  assert.throws(() => loadConfig({ INVITE_MAX_PER_REQUEST: '1001' }), /INVITE_MAX_PER_REQUEST/);
  assert.throws(() => loadConfig({ INVITE_MAX_PER_ACCOUNT_DAY: '0' }), /INVITE_MAX_PER_ACCOUNT_DAY/);
  assert.throws(() => loadConfig({ INVITE_MAILS_PER_RECIPIENT_DAY: 'x' }), /INVITE_MAILS_PER_RECIPIENT_DAY/);
});
