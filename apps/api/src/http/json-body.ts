import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';

/**
 * JSON bodies parsed with prototype-poisoning protection, like Fastify's default, but an
 * empty body (a DELETE sent with a JSON content type) counts as no body instead of an error.
 */
export function registerJsonParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      const error = Object.assign(new Error('invalid JSON body'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
      done(error, undefined);
    }
  });
}
