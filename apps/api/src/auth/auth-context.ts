import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

export interface AuthUser {
  id: string;
  email: string;
  segment: string;
  quotaBytes: number;
  usedBytes: number;
  /** Proven by an e-mail code or an OpenID provider's `email_verified`; only then does the address pass allowlists. */
  emailVerified: boolean;
  /** False for accounts made by an e-mail code or single sign-on until they set one. */
  hasPassword: boolean;
  twoFactorEnabled: boolean;
  /** An administrator, as `Administrators` judges it: the first account, or a proven address ADMIN_EMAILS names. */
  isAdmin: boolean;
}

export const WORKSPACE_ROLES = ['OWNER', 'ADMIN', 'EDITOR', 'VIEWER'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

export interface AuthContext {
  /**
   * The workspace the call acts in, as the owner row every object belongs to: the caller's own
   * account (its personal workspace), or a shared workspace it is a member of. Every owner-scoped
   * operation takes this.
   */
  user: AuthUser;
  /** The signed-in account (a session's, or the one a token acts as): who did it. */
  actor: AuthUser;
  /** The actor's role in the workspace; OWNER in a personal one. */
  role: WorkspaceRole;
  source: 'token' | 'session';
  tokenId: string | null;
  sessionId: string | null;
}

export type AuthenticatedRequest = FastifyRequest & { auth?: AuthContext };

/** The caller established by BearerAuthGuard or SessionAuthGuard. */
export const CurrentAuth = createParamDecorator((_: unknown, context: ExecutionContext): AuthContext => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.auth) throw new Error('CurrentAuth used on a route without an auth guard');
  return request.auth;
});
