import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from './error-envelope.dto.js';

const descriptions: Record<number, string> = {
  400: 'VALIDATION',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'INFECTED, SLUG_TAKEN, DUPLICATE or CONFLICT',
  413: 'OVER_QUOTA',
  429: 'RATE_LIMITED (with Retry-After)',
  500: 'INTERNAL',
  503: 'UNAVAILABLE (with Retry-After): the database or Redis cannot be reached right now',
};

/** Documents the `{ error, code }` envelope for the given statuses. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: descriptions[status], type: ErrorEnvelopeDto })),
  );
}
