import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { AppError } from './app-error.js';

/** The first refusal, with the path of the field it concerns; unknown fields are named as such. */
function firstMessage(errors: ValidationError[], parent = ''): string {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      const messages = Object.values(error.constraints);
      const whitelist = error.constraints['whitelistValidation'];
      if (whitelist) return `不允许的字段：${path}`;
      return messages[0] ?? `${path} 无效`;
    }
    if (error.children?.length) return firstMessage(error.children, path);
  }
  return '请求参数无效';
}

/**
 * The one validation of request DTOs: the global pipe of the HTTP surface, and what checks a DTO
 * that arrives inside another body (the `share` field of a multipart upload).
 */
export const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: false,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => AppError.validation(firstMessage(errors)),
});
