import { fastifyMultipart, type FastifyMultipartOptions } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';

type RequestHook = (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** What may carry a multipart body (the parser itself decides later, once the body is read). */
function mayBeMultipart(request: FastifyRequest): boolean {
  return request.headers['content-type']?.toLowerCase().startsWith('multipart/') ?? false;
}

/** `hook` for multipart requests only; every other request goes on at once, with no promise made. */
function forMultipartOnly(hook: RequestHook) {
  return function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (!mayBeMultipart(request)) {
      done();
      return;
    }
    hook.call(this, request, reply).then(() => done(), done);
  };
}

/**
 * @fastify/multipart, whose request hooks run for multipart requests only. It adds an async
 * onRequest hook (a 'close' listener on the response) and an async onResponse hook to every
 * request, to remove the temporary files of `saveRequestFiles`: two promises and a listener on
 * every request, share views included, for files that only a multipart request can have saved
 * (and this service only ever streams `request.parts()`). Its parser and request decorators are
 * registered as they are.
 */
export const multipartForUploads = fp<FastifyMultipartOptions>(
  (fastify, options, done) => {
    const scoped = new Proxy(fastify, {
      get(target, property) {
        if (property === 'addHook') {
          return (name: string, hook: RequestHook) =>
            target.addHook(name as 'onRequest', name === 'onRequest' || name === 'onResponse' ? forMultipartOnly(hook) : hook);
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    fastifyMultipart(scoped, options, done);
  },
  { name: 'multipart-for-uploads' },
);
