import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SessionOrBearerGuard } from '../auth/session-or-bearer.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { DoorOperationNames } from '../openapi/operation-names.js';
import { validateDocument } from './validate.js';
import { ValidateRequestDto, ValidateResultDto } from './validate.dto.js';

/** Checks a document for the token API (`/api/v1`, `/v1`) and the console (`/api/console`, its session); nothing is stored. */
@ApiTags('validate')
@ApiBearerAuth()
@ApiCookieAuth()
@UseGuards(SessionOrBearerGuard)
@DoorOperationNames({ token: 'Validate', console: 'ConsoleValidate' })
@Controller([...V1_PATHS, 'api/console'])
export class ValidateController {
  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check and normalize a document',
    description:
      'Normalizes the content and reports problems with their line and column. Nothing is stored. ' +
      'HTML: unclosed or mismatched tags, duplicate ids (errors), missing doctype or title, scripts and inline handlers ' +
      '(warnings). Markdown: unclosed code fences and undefined link references (errors), refused links and raw HTML ' +
      'the viewer strips (warnings). All kinds: invalid control characters.',
  })
  @ApiOkResponse({ type: ValidateResultDto })
  @ApiErrors(400, 401, 403, 413, 429)
  validate(@Body() body: ValidateRequestDto): ValidateResultDto {
    return validateDocument(body.content, body.kind);
  }
}
