import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth-context.js';

/**
 * Who is acting in the request being handled: the signed-in account (a session's, or the one a
 * token acts as). In a shared workspace every entry of the trail is the workspace's, so the trail
 * names its member as `actorId` without every call site passing it (AuditLog reads it).
 */
export const actingMember = new AsyncLocalStorage<string>();

/** Runs each authenticated handler with its actor in `actingMember` (guards have run by now). */
@Injectable()
export class ActingMemberInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
    if (!auth || auth.actor.id === auth.user.id) return next.handle();
    return new Observable((subscriber) => actingMember.run(auth.actor.id, () => next.handle().subscribe(subscriber)));
  }
}
