/** Machine codes of the error envelope, exactly as the interface contract lists them. */
export enum ErrorCode {
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  VALIDATION = 'VALIDATION',
  RATE_LIMITED = 'RATE_LIMITED',
  OVER_QUOTA = 'OVER_QUOTA',
  INFECTED = 'INFECTED',
  SLUG_TAKEN = 'SLUG_TAKEN',
  DUPLICATE = 'DUPLICATE',
  CONFLICT = 'CONFLICT',
  INTERNAL = 'INTERNAL',
  /** A backing service (database, Redis, queue) cannot be reached right now; the same request may succeed in a moment. */
  UNAVAILABLE = 'UNAVAILABLE',
}

function assertUnreachable(value: never): never {
  throw new Error(`unmapped error code ${String(value)}`);
}

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.UNAUTHENTICATED:
      return 401;
    case ErrorCode.FORBIDDEN:
      return 403;
    case ErrorCode.NOT_FOUND:
      return 404;
    case ErrorCode.VALIDATION:
      return 400;
    case ErrorCode.RATE_LIMITED:
      return 429;
    case ErrorCode.OVER_QUOTA:
      return 413;
    case ErrorCode.INFECTED:
    case ErrorCode.SLUG_TAKEN:
    case ErrorCode.DUPLICATE:
    case ErrorCode.CONFLICT:
      return 409;
    case ErrorCode.INTERNAL:
      return 500;
    case ErrorCode.UNAVAILABLE:
      return 503;
    default:
      return assertUnreachable(code);
  }
}

/** Default Chinese message for each code, used when a more precise one is not given. */
export function defaultMessageOf(code: ErrorCode): string {
  switch (code) {
    case ErrorCode.UNAUTHENTICATED:
      return '未认证：令牌缺失、无效或已撤销';
    case ErrorCode.FORBIDDEN:
      return '无权执行此操作';
    case ErrorCode.NOT_FOUND:
      return '资源不存在';
    case ErrorCode.VALIDATION:
      return '请求参数无效';
    case ErrorCode.RATE_LIMITED:
      return '请求过于频繁，请稍后再试';
    case ErrorCode.OVER_QUOTA:
      return '文件过大或存储配额已用尽';
    case ErrorCode.INFECTED:
      return '文件被杀毒扫描标记为不安全';
    case ErrorCode.SLUG_TAKEN:
      return '自定义短链接已被占用';
    case ErrorCode.DUPLICATE:
      return '同一文件夹中已存在同名文件';
    case ErrorCode.CONFLICT:
      return '操作冲突';
    case ErrorCode.INTERNAL:
      return '服务器内部错误';
    case ErrorCode.UNAVAILABLE:
      return '服务暂时不可用，请稍后重试';
    default:
      return assertUnreachable(code);
  }
}
