import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { MarkNotificationsReadDto, NotificationPageDto, NotificationsQueryDto, UnreadCountDto } from './notification.dto.js';
import { NotificationsService } from './notifications.service.js';

/** The signed-in account's notifications of visits to its shares (console session only). */
@ApiTags('notifications')
@ApiCookieAuth()
@UseGuards(SessionAuthGuard)
@Controller('api/notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @ApiOperation({
    summary: 'List notifications',
    description:
      "The account's notifications, newest first: `first_visit` and `visit` (shares whose `notify` is `first` or " +
      '`every`), `daily_digest` (shares whose `notify` is `daily`). `unread=true` lists only unread ones; ' +
      '`unreadCount` counts every unread notification of the account. Page with `limit` and `cursor`.',
  })
  @ApiOkResponse({ type: NotificationPageDto })
  @ApiErrors(400, 401, 403)
  list(@CurrentAuth() auth: AuthContext, @Query() query: NotificationsQueryDto): Promise<NotificationPageDto> {
    return this.notifications.page(auth.user.id, query);
  }

  @Post('read')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Mark notifications read',
    description: 'Marks the named notifications read, or all of them when `ids` is absent; ids of other accounts change nothing.',
  })
  @ApiOkResponse({ type: UnreadCountDto })
  @ApiErrors(400, 401, 403)
  markRead(@CurrentAuth() auth: AuthContext, @Body() body: MarkNotificationsReadDto): Promise<UnreadCountDto> {
    return this.notifications.markRead(auth.user.id, body.ids);
  }
}
