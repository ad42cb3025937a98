import { LOCALES } from '@sharedown/i18n';
import { z } from 'zod';
import { parseTrustProxy } from './trust-proxy.js';

const booleanString = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const port = z.coerce.number().int().min(1).max(65535);

const url = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL with protocol ${protocols.join(' or ')}`,
  );

/** Every configuration key of the service, with its default. Nothing else reads process.env. */
const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  RENDER_URL: url(['http:', 'https:']).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  CLAMD_HOST: z.string().min(1).optional(),
  CLAMD_PORT: port.default(3310),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  ALLOW_REGISTRATION: booleanString.default(true),
  DEFAULT_QUOTA_BYTES: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(104857600),
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((value, context) => {
      const emails = value
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean);
      const bad = emails.filter((email) => !z.email().safeParse(email).success);
      if (bad.length) {
        context.addIssue({ code: 'custom', message: `not an e-mail address: ${bad.join(', ')}` });
        return z.NEVER;
      }
      return [...new Set(emails)];
    }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanString.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).max(254).optional(),
  OIDC_ISSUER_URL: url(['http:', 'https:']).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_SCOPES: z.string().min(1).default('openid email profile'),
  OIDC_BUTTON_LABEL: z.string().min(1).max(60).optional(),
  PASSWORD_LOGIN: booleanString.default(true),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_PORT: port.optional(),
  LOG_FORMAT: z.enum(['json', 'text']).optional(),
  NODE_ENV: z.string().optional(),
  VISIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  DEFAULT_LOCALE: z.enum(LOCALES).default('zh-CN'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context) => {
      const parsed = parseTrustProxy(value);
      if (typeof parsed === 'string') {
        context.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
});

export type Env = Omit<z.infer<typeof envSchema>, 'PUBLIC_URL' | 'RENDER_URL'> & {
  PUBLIC_URL: string;
  RENDER_URL: string;
};

export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment variables: ${problems.join('; ')}`);
  }
}

/** Parses and validates the configuration once; throws naming every bad key. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const input: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = source[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    throw new InvalidEnvironmentError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  // Optional integrations come with all of their keys or none.
  if (Boolean(env.SMTP_URL) !== Boolean(env.MAIL_FROM))
    problems.push('SMTP_URL and MAIL_FROM: set both to send e-mail, or neither');
  const oidcKeys = [env.OIDC_ISSUER_URL, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].filter(Boolean).length;
  if (oidcKeys !== 0 && oidcKeys !== 3) {
    problems.push('OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: set all three for single sign-on, or none');
  }
  if (!env.PASSWORD_LOGIN && oidcKeys !== 3 && !env.SMTP_URL) {
    problems.push('PASSWORD_LOGIN: false needs another way to sign in (OIDC_* or SMTP_URL)');
  }
  if (env.METRICS_PORT && !env.METRICS_TOKEN)
    problems.push('METRICS_PORT: set METRICS_TOKEN too, or the listener would answer nobody');
  if (env.METRICS_PORT && env.METRICS_PORT === env.PORT) problems.push('METRICS_PORT: must differ from PORT');
  if (problems.length) throw new InvalidEnvironmentError(problems);
  const publicUrl = stripTrailingSlash(env.PUBLIC_URL ?? `http://${displayHost(env.HOST)}:${env.PORT}`);
  return {
    ...env,
    PUBLIC_URL: publicUrl,
    RENDER_URL: stripTrailingSlash(env.RENDER_URL ?? publicUrl),
  };
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function stripTrailingSlash(value: string): string {
  return value.replace(/\/+$/, '');
}

export const ENV = Symbol('ENV');
