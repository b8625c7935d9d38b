import { describe, expect, it } from 'vitest';
import { packRecord, unpackRecord, type EngineRecord } from '../src/engine-records.js';

const RECORD: EngineRecord = {
  engine: 'webkit',
  version: '2.50.6',
  stack: 'caddy',
  scheme: 'https',
  recordedAt: '2026-11-27T12:00:00.000Z',
  cases: {
    read: {
      preflight: true,
      sent: true,
      readable: true,
      status: 200,
      extraVisible: false,
      cookieReturned: null,
      agreement: 'agree',
    },
    refused: {
      preflight: false,
      sent: true,
      readable: false,
      status: null,
      extraVisible: null,
      cookieReturned: true,
      agreement: 'known-difference',
    },
    odd: {
      preflight: false,
      sent: false,
      readable: false,
      status: 0,
      extraVisible: true,
      cookieReturned: false,
      agreement: 'disagree',
    },
  },
};

describe('engine records as the build publishes them', () => {
  it('packs each outcome into one short array', () => {
    expect(packRecord(RECORD).cases).toEqual({
      read: [1, 1, 1, 200, 0, null, 'a'],
      refused: [0, 1, 0, null, null, 1, 'k'],
      odd: [0, 0, 0, 0, 1, 0, 'd'],
    });
  });

  it('keeps everything else of the record, and unpacks to what was packed', () => {
    const { cases: _cases, ...rest } = packRecord(RECORD);
    const { cases: _original, ...expected } = RECORD;
    expect(rest).toEqual(expected);
    expect(unpackRecord(packRecord(RECORD))).toEqual(RECORD);
  });
});
