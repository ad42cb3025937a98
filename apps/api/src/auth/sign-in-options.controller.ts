import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { PublicRoute } from '../openapi/public-route.decorator.js';
import { REGISTRATION_MODES, type RegistrationMode } from './accounts/instance-settings.repository.js';
import { RegistrationPolicy } from './accounts/registration-policy.js';

export class SignInOptionsDto {
  @ApiProperty({ description: 'e-mail and password sign-in is offered (PASSWORD_LOGIN)' }) passwordLogin: boolean;
  @ApiProperty({
    description:
      'the console may show its sign-up form: registration is open (the registration mode, else ALLOW_REGISTRATION) and password sign-in is on. ' +
      'Invite-only instances answer false: the form is for invitation links (`registrationMode`)',
  })
  registration: boolean;
  @ApiProperty({ description: 'e-mail is configured: codes for sign-in, address verification and password reset' })
  emailCodes: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'label of the single sign-on button; null when OpenID Connect is off',
  })
  oidcLabel: string | null;
  @ApiProperty({ description: 'the address to register at the OpenID provider as redirect URI', format: 'uri' })
  oidcRedirectUri: string;
  @ApiProperty({
    enum: REGISTRATION_MODES,
    description:
      'how new accounts are made: by anyone, with an invitation link, or not at all (set by an administrator at run time)',
  })
  registrationMode: RegistrationMode;
}

/** What the sign-in pages may offer on this instance; read by the console before it draws them. */
@ApiTags('console')
@Controller('api/auth')
export class SignInOptionsController {
  constructor(
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly registration: RegistrationPolicy,
  ) {}

  @Get('options')
  @PublicRoute()
  @ApiOperation({ summary: 'What the sign-in pages offer: password, registration, e-mail codes, single sign-on' })
  @ApiOkResponse({ type: SignInOptionsDto })
  async options(): Promise<SignInOptionsDto> {
    const env = this.runtime.env;
    const registrationMode = await this.registration.mode();
    return {
      passwordLogin: env.PASSWORD_LOGIN,
      registration: registrationMode === 'open' && env.PASSWORD_LOGIN,
      registrationMode,
      emailCodes: Boolean(env.SMTP_URL),
      oidcLabel: env.OIDC_ISSUER_URL ? (env.OIDC_BUTTON_LABEL ?? 'Single sign-on') : null,
      oidcRedirectUri: `${env.PUBLIC_URL}/api/auth/oidc/callback`,
    };
  }
}
