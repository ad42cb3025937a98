import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/app-error.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { ApiTokensService } from './tokens/api-tokens.service.js';
import type { AuthContext, AuthenticatedRequest } from './auth-context.js';
import {
  WORKSPACE_HEADER,
  WORKSPACE_QUERY,
  WorkspaceAccessRepository,
  actsInWorkspace,
} from './accounts/workspace-access.repository.js';
import { bearerOf } from './tokens/bearer-auth.guard.js';
import { SESSION_COOKIE, SessionsService } from './sessions/sessions.service.js';

/**
 * Console routes: a session cookie only. A bearer token is refused (tokens cannot manage
 * tokens or webhooks). Requests must come from our own origin: with SameSite=Lax cookies,
 * rejecting foreign and `null` Origins closes the remaining CSRF paths.
 */
@Injectable()
export class SessionAuthGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionsService,
    private readonly tokens: ApiTokensService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly workspaces: WorkspaceAccessRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const presented = bearerOf(request);
    if (presented !== null) {
      const identity = presented ? await this.tokens.authenticate(presented) : 'invalid';
      if (typeof identity === 'object') throw new AppError(ErrorCode.FORBIDDEN, 'API 令牌不能访问控制台接口，请使用控制台会话');
      throw new AppError(ErrorCode.UNAUTHENTICATED, '令牌无效或已撤销');
    }
    assertSameOrigin(request, this.runtime);
    const session = await this.sessions.resolve(request.cookies?.[SESSION_COOKIE]);
    if (!session) throw new AppError(ErrorCode.UNAUTHENTICATED, '未登录或会话已过期');
    const auth: AuthContext = {
      user: session.user,
      actor: session.user,
      role: 'OWNER',
      source: 'session',
      tokenId: null,
      sessionId: session.sessionId,
    };
    // A download link cannot send a header: it names the workspace in its query instead.
    const named = request.headers[WORKSPACE_HEADER] ?? (request.query as Record<string, unknown> | undefined)?.[WORKSPACE_QUERY];
    if (typeof named === 'string' && named !== '' && named !== session.user.id && actsInWorkspace(request.url)) {
      // Read at every request: a member removed or demoted a moment ago acts no more, on every replica.
      const access = UUID.test(named) ? await this.workspaces.access(named, session.user.id) : null;
      if (!access) throw AppError.notFound('工作区不存在');
      auth.user = access.workspace;
      auth.role = access.role;
      if (access.role === 'VIEWER' && !READS.has(request.method) && !viewerMayWrite(request.url)) {
        throw new AppError(ErrorCode.FORBIDDEN, '你在此工作区中是查看者，不能修改内容');
      }
      // Webhooks are the workspace's: its owners and administrators manage them.
      if (
        (access.role === 'EDITOR' || access.role === 'VIEWER') &&
        request.url.startsWith('/api/webhooks') &&
        !READS.has(request.method)
      ) {
        throw new AppError(ErrorCode.FORBIDDEN, '只有工作区的所有者和管理员可以管理 Webhook');
      }
    }
    request.auth = auth;
    return true;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a VIEWER may still change in a workspace: its own API tokens (which read only, as it does),
 * its notifications' read marks, and its membership (leaving).
 */
function viewerMayWrite(url: string): boolean {
  return (
    url.startsWith('/api/tokens') || url.startsWith('/api/notifications') || url.startsWith('/api/console/workspace/members/')
  );
}

/**
 * A request that names its origin must name PUBLIC_URL's, whatever its method: a foreign or
 * `null` Origin (sandboxed frames, data: URLs, redirects across sites) never acts with the
 * session. The origin comes from configuration only, never from the Host header a client sends.
 * Requests without Origin (same-origin GETs, non-browser clients) are not cross-site requests.
 */
export function assertSameOrigin(request: AuthenticatedRequest, runtime: Runtime): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (origin !== new URL(runtime.env.PUBLIC_URL).origin) {
    throw new AppError(ErrorCode.FORBIDDEN, '跨站请求被拒绝');
  }
}
