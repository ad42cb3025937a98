import { createSharedownClient } from '@sharedown/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, call, NETWORK_ERROR } from '../api/client';
import { errorMessage } from '../api/errors';
import { xhrFetch } from '../api/xhr-fetch';
import { harness, mockApi } from './helpers';

describe(call.name, () => {
  beforeEach(() => harness());

  it('reports a refused connection of the upload transport as a network failure', async () => {
    // Nothing listens on the discard port: jsdom's real XMLHttpRequest fails to connect (and logs it).
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const unreachable = createSharedownClient({ baseUrl: 'http://127.0.0.1:9' });
    const failure = await call(unreachable.GET('/api/auth/session', { fetch: xhrFetch(() => {}) })).catch((error) => error);
    expect(failure).toMatchObject({ code: NETWORK_ERROR, status: 0 });
  });

  it('reports an answer that is not the JSON it claims to be as a server error, not as the network', async () => {
    const { fetchMock } = mockApi({});
    fetchMock.mockResolvedValueOnce(new Response('<html>proxy page</html>', { headers: { 'content-type': 'application/json' } }));
    const failure = await call(api().GET('/api/auth/session')).catch((error) => error);
    expect(failure).toMatchObject({ code: 'INTERNAL', status: 0 });
    expect(errorMessage(failure, 'zh')).toBe('服务器内部错误，请稍后再试。');
    expect(errorMessage(failure, 'en')).toBe('Something went wrong on the server. Try again later.');
  });
});
