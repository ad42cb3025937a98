import { SetMetadata } from '@nestjs/common';

/** What an API token may do: `read` (every token) and `write` (create, change, delete). */
export const TOKEN_SCOPES = ['read', 'write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const REQUIRED_SCOPE = 'sharedown:required-scope';

/** Marks a REST operation that changes data: a read-only token gets 403 FORBIDDEN. */
export const RequiresWriteScope = () => SetMetadata(REQUIRED_SCOPE, 'write' satisfies TokenScope);
