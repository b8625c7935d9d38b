import { describe, expect, it } from 'vitest';
import { ConfigError, listenFromEnv, listenSettings, rowsOf } from '../src/index.js';

const LISTEN = listenSettings(3000, 'port of this server');

describe('where a server listens', () => {
  it('is the PORT and HOST rows, the port with the default and the doc its start gives', () => {
    expect(rowsOf(LISTEN).map(({ path, row }) => [path, row.env, row.default, row.accepts, row.doc])).toEqual([
      ['port', 'PORT', 3000, '0 to 65535', 'port of this server'],
      ['host', 'HOST', '', 'text', 'address to listen on'],
    ]);
  });

  it('listens on every interface unless HOST names an address', () => {
    expect(listenFromEnv(LISTEN, {})).toEqual({ port: 3000, host: undefined });
    expect(listenFromEnv(LISTEN, { HOST: '' })).toEqual({ port: 3000, host: undefined });
    expect(listenFromEnv(LISTEN, { PORT: '0', HOST: '127.0.0.1' })).toEqual({ port: 0, host: '127.0.0.1' });
  });

  it('refuses a port outside 0 to 65535, naming PORT', () => {
    expect(() => listenFromEnv(LISTEN, { PORT: '65536' })).toThrow(
      new ConfigError('PORT must be from 0 to 65535; got 65536'),
    );
    expect(() => listenFromEnv(LISTEN, { PORT: 'eighty' })).toThrow(/^PORT must be a whole number/);
  });
});
