import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { jsonDepthExceeds, jsonTooDeep } from '../common/json-depth.js';

/**
 * JSON bodies parsed with prototype-poisoning protection, like Fastify's default, but an
 * empty body (a DELETE sent with a JSON content type) counts as no body instead of an error.
 * Bodies nested deeper than MAX_JSON_DEPTH are refused before parsing, so validation never
 * recurses through them.
 */
export function registerJsonParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepthExceeds(text)) return done(jsonTooDeep('请求体'), undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      const error = Object.assign(new Error('invalid JSON body'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
      done(error, undefined);
    }
  });
}
