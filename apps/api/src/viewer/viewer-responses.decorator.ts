import { applyDecorators } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';

// What each status of a share link's answers means; every page is HTML, in Chinese, for a person.
const ANSWERS = {
  303: 'the password was right: back to the link, with the cookie that admits this browser',
  400: 'the form was incomplete: the page again, saying what is missing',
  401: 'the password form (again after a wrong password), or the sign-in page of a link that needs an account',
  403: 'not admitted: another browser session holds this one-session link, the signed-in account is not on the allowlist or has not proven its address, or the form came from another site',
  404: 'no such link',
  410: 'the link is revoked, expired or used up (for everyone or for this visitor), or its document was deleted or quarantined',
  429: 'too many attempts (password or reports) from this client; `Retry-After` says when to try again',
  503: 'the document is still being scanned, or its scan failed and is retried; `Retry-After` says when to look again',
} as const;

export type ViewerAnswerStatus = keyof typeof ANSWERS;

/** Documents the HTML answers a share link route gives besides its 200 page. */
export function ApiViewerResponses(...statuses: ViewerAnswerStatus[]): MethodDecorator {
  return applyDecorators(
    ApiProduces('text/html'),
    ...statuses.map((status) => ApiResponse({ status, description: ANSWERS[status] })),
  );
}
