import { describe, expect, it } from 'vitest';
import { createSharedownClient, SharedownApiError, unwrap } from './client.js';

/** A client whose "service" answers every request with this status and body. */
function clientAnswering(status: number, body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return createSharedownClient({
    baseUrl: 'http://service.test',
    token: 'shd_x',
    fetch: async () => new Response(text, { status, headers: { 'content-type': 'application/json' } }),
  });
}

async function errorOf(call: Promise<unknown>): Promise<SharedownApiError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SharedownApiError)) throw new Error(`expected a SharedownApiError, got ${String(error)}`);
  return error;
}

describe(unwrap.name, () => {
  it("names the route of the service's unknown-route answer, with its path template", async () => {
    const sut = clientAnswering(404, { error: '接口不存在', code: 'NOT_FOUND' });
    const error = await errorOf(unwrap(sut.GET('/api/v1/files/{id}', { params: { path: { id: 'f1' } } })));
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', missingRoute: 'GET /api/v1/files/{id}' });
  });

  it('names the route of a 404 that is not the envelope (the framework, a proxy)', async () => {
    const framework = clientAnswering(404, {
      message: 'Route GET:/api/v1/folders not found',
      error: 'Not Found',
      statusCode: 404,
    });
    expect(await errorOf(unwrap(framework.GET('/api/v1/folders')))).toMatchObject({ missingRoute: 'GET /api/v1/folders' });
    const proxy = clientAnswering(404, '<html>Not Found</html>');
    expect(await errorOf(unwrap(proxy.DELETE('/api/v1/trash')))).toMatchObject({ missingRoute: 'DELETE /api/v1/trash' });
  });

  it('reads the route from the framework message when the answer came through another client', async () => {
    const response = new Response(JSON.stringify({ message: 'Route PATCH:/api/v1/files/x?y=1 not found' }), { status: 404 });
    const error = await errorOf(unwrap(Promise.resolve({ error: await response.clone().json(), response })));
    expect(error.missingRoute).toBe('PATCH /api/v1/files/x');
  });

  it('leaves a missing resource, and other refusals, alone', async () => {
    const missingFile = clientAnswering(404, { error: '文件不存在', code: 'NOT_FOUND' });
    expect(await errorOf(unwrap(missingFile.GET('/api/v1/files/{id}', { params: { path: { id: 'f1' } } })))).toMatchObject({
      code: 'NOT_FOUND',
      message: '文件不存在',
      missingRoute: null,
    });
    const refused = clientAnswering(401, { error: '未认证', code: 'UNAUTHENTICATED' });
    expect((await errorOf(unwrap(refused.GET('/api/v1/me')))).missingRoute).toBeNull();
  });
});
