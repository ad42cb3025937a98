import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { PublicRoute } from '../openapi/public-route.decorator.js';

export class SignInOptionsDto {
  @ApiProperty({ description: 'e-mail and password sign-in is offered (PASSWORD_LOGIN)' }) passwordLogin: boolean;
  @ApiProperty({ description: 'new accounts may register with a password (ALLOW_REGISTRATION)' }) registration: boolean;
  @ApiProperty({ description: 'e-mail is configured: codes for sign-in, address verification and password reset' })
  emailCodes: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'label of the single sign-on button; null when OpenID Connect is off' })
  oidcLabel: string | null;
  @ApiProperty({ description: 'the address to register at the OpenID provider as redirect URI', format: 'uri' })
  oidcRedirectUri: string;
}

/** What the sign-in pages may offer on this instance; read by the console before it draws them. */
@ApiTags('console')
@Controller('api/auth')
export class SignInOptionsController {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  @Get('options')
  @PublicRoute()
  @ApiOperation({ summary: 'What the sign-in pages offer: password, registration, e-mail codes, single sign-on' })
  @ApiOkResponse({ type: SignInOptionsDto })
  options(): SignInOptionsDto {
    const env = this.runtime.env;
    return {
      passwordLogin: env.PASSWORD_LOGIN,
      registration: env.ALLOW_REGISTRATION && env.PASSWORD_LOGIN,
      emailCodes: Boolean(env.SMTP_URL),
      oidcLabel: env.OIDC_ISSUER_URL ? (env.OIDC_BUTTON_LABEL ?? 'Single sign-on') : null,
      oidcRedirectUri: `${env.PUBLIC_URL}/api/auth/oidc/callback`,
    };
  }
}
