import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { validateDocument } from './validate.js';
import { ValidateRequestDto, ValidateResultDto } from './validate.dto.js';

/** The console's session-authenticated twin of `POST /api/v1/validate`; nothing is stored. */
@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/console/validate')
export class ConsoleValidateController {
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check and normalize a document (console)',
    description: 'Same rules and answer as POST /api/v1/validate.',
  })
  @ApiOkResponse({ type: ValidateResultDto })
  @ApiErrors(400, 401, 403)
  validate(@Body() body: ValidateRequestDto): ValidateResultDto {
    return validateDocument(body.content, body.kind);
  }
}
