import { describe, expect, it } from 'vitest';
import { fastifyTrustProxy, parseTrustProxy } from './trust-proxy.js';

describe(parseTrustProxy.name, () => {
  it.each([
    ['', false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.5', ['10.0.0.5']],
    ['10.0.0.0/8, 127.0.0.1,::1', ['10.0.0.0/8', '127.0.0.1', '::1']],
    ['fd00::/8,loopback', ['fd00::/8', 'loopback']],
  ])('reads %j as %j', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected);
  });

  it.each(['yes', '10.0.0.0/33', '::1/129', '10.0.0.1/8/2', 'proxy.internal', '99'])('refuses %j with a message', (raw) => {
    expect(typeof parseTrustProxy(raw)).toBe('string');
  });
});

describe(fastifyTrustProxy.name, () => {
  it('turns a hop count into trust of the nearest hops only', () => {
    const sut = fastifyTrustProxy(2) as (address: string, hop: number) => boolean;
    expect([0, 1, 2, 3].map((hop) => sut('203.0.113.9', hop))).toEqual([true, true, false, false]);
  });

  it('passes booleans and address lists through', () => {
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
  });
});
