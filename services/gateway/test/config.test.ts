import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.js';

describe('gateway configuration', () => {
  it('defaults to port 8080 and the local service ports 8101..8106', () => {
    const config = loadGatewayConfig({});
    expect(config.port).toBe(8080);
    expect(config.upstreams).toEqual({
      'auth-platform': 'http://127.0.0.1:8101',
      'master-data': 'http://127.0.0.1:8102',
      intake: 'http://127.0.0.1:8103',
      'ledger-settlement': 'http://127.0.0.1:8104',
      'payment-tax': 'http://127.0.0.1:8105',
      analytics: 'http://127.0.0.1:8106',
    });
    expect(config.loginRateLimit).toEqual({ max: 10, windowMs: 60_000 });
  });

  it('reads upstream URLs from the environment, without a trailing slash', () => {
    const config = loadGatewayConfig({ AUTH_PLATFORM_URL: 'http://auth-platform:8101/', PORT: '9000' });
    expect(config.upstreams['auth-platform']).toBe('http://auth-platform:8101');
    expect(config.port).toBe(9000);
  });

  it('refuses to start with an invalid value', () => {
    expect(() => loadGatewayConfig({ MASTER_DATA_URL: 'not a url' })).toThrow(/MASTER_DATA_URL/);
    expect(() => loadGatewayConfig({ LOGIN_RATE_LIMIT: '0' })).toThrow(/LOGIN_RATE_LIMIT/);
  });
});
