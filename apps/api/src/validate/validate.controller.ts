import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BearerAuthGuard } from '../auth/tokens/bearer-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { V1_PATHS } from '../common/v1-paths.js';
import { validateDocument } from './validate.js';
import { ValidateRequestDto, ValidateResultDto } from './validate.dto.js';

@ApiTags('validate')
@ApiBearerAuth()
@UseGuards(BearerAuthGuard)
@Controller(V1_PATHS)
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
  @ApiErrors(400, 401, 413, 429)
  validate(@Body() body: ValidateRequestDto): ValidateResultDto {
    return validateDocument(body.content, body.kind);
  }
}
