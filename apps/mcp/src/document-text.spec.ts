import { createSharedownClient, SharedownApiError } from '@sharedown/contract';
import { describe, expect, it } from 'vitest';
import { essenceOf, readDocumentText } from './document-text.js';
import type { ToolContext } from './tool-context.js';

function contextAnswering(response: () => Response): { context: ToolContext; requests: Request[] } {
  const requests: Request[] = [];
  const config = { url: 'http://sharedown.test', token: 'shd_a_b' };
  const client = createSharedownClient({
    baseUrl: config.url,
    token: config.token,
    fetch: async (request: Request) => {
      requests.push(request);
      return response();
    },
  });
  return { context: { config, client }, requests };
}

describe(readDocumentText.name, () => {
  it('returns the body as stored, byte order mark included, with the media type, version and name from the headers', async () => {
    const text = '\uFEFF# 标题\r\n\n<b>not json</b>';
    const { context, requests } = contextAnswering(
      () =>
        new Response(text, {
          headers: {
            'Content-Type': 'text/markdown; charset=utf-8',
            'Content-Disposition': `attachment; filename="??.md"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.md`,
            'X-Version-Id': 'v-2',
            'X-Version-No': '2',
          },
        }),
    );
    expect(await readDocumentText(context, 'f 1')).toEqual({
      fileId: 'f 1',
      name: '报告.md',
      mediaType: 'text/markdown',
      versionId: 'v-2',
      versionNo: 2,
      text,
    });
    expect(requests[0]!.url).toBe('http://sharedown.test/api/v1/files/f%201/content');
  });

  it('reads an empty document as the empty string', async () => {
    const { context } = contextAnswering(
      () => new Response('', { headers: { 'Content-Type': 'text/plain', 'Content-Length': '0', 'X-Version-Id': 'v' } }),
    );
    expect(await readDocumentText(context, 'f')).toMatchObject({ text: '', mediaType: 'text/plain' });
  });

  it("throws the service's error code for a quarantined file", async () => {
    const { context } = contextAnswering(
      () =>
        new Response(JSON.stringify({ error: '文件已被杀毒扫描隔离', code: 'INFECTED' }), {
          status: 409,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    const error = await readDocumentText(context, 'f').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SharedownApiError);
    expect(error).toMatchObject({ status: 409, code: 'INFECTED' });
  });
});

describe(essenceOf.name, () => {
  it('drops the parameters and lower-cases', () => {
    expect(essenceOf('Text/HTML; charset=utf-8')).toBe('text/html');
  });

  it('assumes plain text without a header', () => {
    expect(essenceOf(null)).toBe('text/plain');
  });
});
