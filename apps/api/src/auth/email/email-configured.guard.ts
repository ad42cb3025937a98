import { type CanActivate, Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { RUNTIME, type Runtime } from '../../common/runtime.js';

/** Without SMTP_URL the e-mail routes do not exist: 404 before the body is even looked at. */
@Injectable()
export class EmailConfiguredGuard implements CanActivate {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  canActivate(): boolean {
    if (!this.runtime.env.SMTP_URL) throw AppError.notFound('本服务未配置电子邮件');
    return true;
  }
}
