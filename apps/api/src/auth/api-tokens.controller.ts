import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { pageRequestOf, searchText } from '../common/page-cursor.js';
import { ApiTokensService, TOKENS_CURSOR } from './tokens/api-tokens.service.js';
import { CurrentAuth, type AuthContext } from './auth-context.js';
import { CreateTokenDto, CreatedTokenDto, TokenListDto, TokenResponseDto } from './dto/auth.dto.js';
import { SessionAuthGuard } from './session-auth.guard.js';

@ApiTags('console')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/tokens')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Get()
  @ApiOperation({
    summary: "The account's API tokens (never their secrets), newest first",
    description:
      'Without `limit` and `cursor` the answer holds every token. With either, it holds one page, `nextCursor` and ' +
      '`total` (the count over all pages); `q` then keeps the tokens whose name or prefix contains it.',
  })
  @ApiQuery({ name: 'q', required: false, type: String, description: 'with paging: a part of the name or prefix' })
  @ApiPageQueries()
  @ApiOkResponse({ type: TokenListDto })
  @ApiErrors(400, 401, 403)
  async list(
    @CurrentAuth() auth: AuthContext,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
    @Query('q') q?: string,
  ): Promise<TokenListDto> {
    const page = pageRequestOf(TOKENS_CURSOR, { limit, cursor });
    if (page) return this.tokens.page(auth.user.id, searchText(q), page);
    return { tokens: await this.tokens.list(auth.user.id) };
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an API token; its plaintext is shown in this answer only' })
  @ApiOkResponse({ type: CreatedTokenDto, description: 'the plaintext is returned only here' })
  @ApiErrors(400, 401, 403)
  create(@CurrentAuth() auth: AuthContext, @Body() body: CreateTokenDto) {
    return this.tokens.create(auth.user.id, body, auth.actor.id);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an API token' })
  @ApiOkResponse({ type: TokenResponseDto, description: 'the token, revoked' })
  @ApiErrors(401, 403, 404)
  async revoke(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return { token: await this.tokens.revoke(auth.user.id, id) };
  }
}
