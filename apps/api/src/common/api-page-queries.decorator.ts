import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { DEFAULT_PAGE_LIMIT, MAX_CURSOR_LENGTH, MAX_PAGE_LIMIT } from './page-cursor.js';

export const NEXT_CURSOR_DESCRIPTION =
  'present only when the request named `limit` or `cursor`: the `cursor` of the next page, or null on the last page';

/** Documents the optional `limit` and `cursor` query parameters of a keyset-paged list. */
export function ApiPageQueries(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'limit',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT },
      description: `rows per page (1..${MAX_PAGE_LIMIT}); asks for one page instead of the whole list. Default ${DEFAULT_PAGE_LIMIT} when only \`cursor\` is sent`,
    }),
    ApiQuery({
      name: 'cursor',
      required: false,
      schema: { type: 'string', maxLength: MAX_CURSOR_LENGTH },
      description:
        'the `nextCursor` of the previous page, unchanged (opaque); send the same filters with it. A cursor that is not one answers 400 VALIDATION',
    }),
  );
}
