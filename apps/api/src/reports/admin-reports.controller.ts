import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '../admin/admin.guard.js';
import { CurrentAuth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrors } from '../common/api-errors.decorator.js';
import { ApiPageQueries } from '../common/api-page-queries.decorator.js';
import { AdminReportsService } from './admin-reports.service.js';
import { AdminReportDto, AdminReportPageDto, AdminReportsQueryDto, REPORT_FILTERS, ResolveReportDto } from './reports.dto.js';

/** The abuse-report queue: administrators only, with a console session. */
@ApiTags('admin')
@ApiCookieAuth()
@UseGuards(AdminGuard)
@Controller('api/admin/reports')
export class AdminReportsController {
  constructor(private readonly reports: AdminReportsService) {}

  @Get()
  @ApiOperation({
    summary: 'Abuse reports, newest first (administrators)',
    description: 'Open reports unless `status` says otherwise; always one page (default 50) and `nextCursor`.',
  })
  @ApiQuery({ name: 'status', required: false, enum: REPORT_FILTERS, description: 'default open' })
  @ApiPageQueries()
  @ApiOkResponse({ type: AdminReportPageDto })
  @ApiErrors(400, 401, 403)
  list(@Query() query: AdminReportsQueryDto): Promise<AdminReportPageDto> {
    return this.reports.page(query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One abuse report (administrators)' })
  @ApiOkResponse({ type: AdminReportDto })
  @ApiErrors(401, 403, 404)
  get(@Param('id') id: string): Promise<AdminReportDto> {
    return this.reports.get(id);
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Resolve an abuse report (administrators)',
    description:
      'Resolves the report and every other open report of the same share with the same outcome, audited with the ' +
      "administrator's id. disable_share revokes the link for good (it answers 410 saying it was disabled after a report); " +
      "disable_owner disables the owner's account in the same transaction. A report resolved already (also by a " +
      'concurrent request) answers 409 CONFLICT, as does disabling a share or owner that no longer exists, the ' +
      "administrator's own account, or the last administrator.",
  })
  @ApiOkResponse({ type: AdminReportDto })
  @ApiErrors(400, 401, 403, 404, 409)
  resolve(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Body() body: ResolveReportDto): Promise<AdminReportDto> {
    return this.reports.resolve(auth.user.id, id, body.action);
  }
}
