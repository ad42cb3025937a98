import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { AppError } from './app-error.js';

interface Refusal {
  message: string;
  /** Dotted path of the field, absent when the body as a whole is refused. */
  field?: string;
}

/** The first refusal, with the path of the field it concerns; unknown fields are named as such. */
export function firstRefusal(errors: ValidationError[], parent = ''): Refusal {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      const messages = Object.values(error.constraints);
      const whitelist = error.constraints['whitelistValidation'];
      if (whitelist) return { message: `不允许的字段：${path}`, field: path };
      return { message: messages[0] ?? `${path} 无效`, field: path };
    }
    if (error.children?.length) return firstRefusal(error.children, path);
  }
  return { message: '请求参数无效' };
}

/**
 * The one validation of request DTOs: the global pipe of the HTTP surface, and what checks a DTO
 * that arrives inside another body (the `share` field of a multipart upload).
 */
class BodyValidationPipe extends ValidationPipe {
  /**
   * A JSON body of `null` passes class-validator as an empty object but reaches the handler as
   * null; a DTO whose fields are all optional would then be read from null. The handler gets the
   * empty object that was validated instead.
   */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const result: unknown = await super.transform(value, metadata);
    const isDtoBody = metadata.type === 'body' && typeof metadata.metatype === 'function' && metadata.metatype !== Object;
    return result === null && isDtoBody ? {} : result;
  }
}

export const validationPipe = new BodyValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: false,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => {
    const refusal = firstRefusal(errors);
    return AppError.validation(refusal.message, refusal.field);
  },
});
