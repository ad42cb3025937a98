import { escapeHtml } from '../common/text/html.js';

/** What is mailed: plain text and a simple HTML part saying the same. */
export interface MailMessage {
  subject: string;
  text: string;
  html: string;
}

/** What a one-time code is for. */
export type CodePurpose = 'sign-in' | 'verify' | 'reset';

// No per-user language exists yet: every message says everything in Chinese, then in English.
const CODE_TEXT: Record<CodePurpose, { subject: string; zh: string; en: string }> = {
  'sign-in': {
    subject: '登录验证码 / Sign-in code',
    zh: '你的登录验证码',
    en: 'Your sign-in code',
  },
  verify: {
    subject: '验证电子邮件地址 / Verify your e-mail address',
    zh: '验证此电子邮件地址的验证码',
    en: 'Your code to verify this e-mail address',
  },
  reset: {
    subject: '重置密码验证码 / Password reset code',
    zh: '重置密码的验证码',
    en: 'Your code to reset your password',
  },
};

/** The host name the message names, so the reader knows which service sent it. */
export function hostOf(publicUrl: string): string {
  return new URL(publicUrl).host;
}

const CODE_STYLE = 'font-size:28px;font-weight:700;letter-spacing:6px;font-family:monospace';

/** One language's part: its first sentence, the code if any, then the rest. */
export interface Part {
  lead: string;
  code?: string;
  rest: string[];
}

export function textOf(parts: Part[]): string {
  return (
    parts.map((part) => [part.lead, ...(part.code ? ['', part.code, ''] : []), ...part.rest].join('\n')).join('\n\n---\n\n') +
    '\n'
  );
}

export function htmlOf(parts: Part[]): string {
  const sections = parts.map((part) => {
    const code = part.code ? `<p style="${CODE_STYLE}">${escapeHtml(part.code)}</p>` : '';
    return `<p>${escapeHtml(part.lead)}</p>${code}${part.rest.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}`;
  });
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${sections.join('<hr>')}</body></html>`;
}

/** A six-digit code and what it is for; nothing else about the account. */
export function codeMessage(purpose: CodePurpose, code: string, publicUrl: string, minutes: number): MailMessage {
  const host = hostOf(publicUrl);
  const words = CODE_TEXT[purpose];
  const parts: Part[] = [
    {
      lead: `${words.zh}（${host}）：`,
      code,
      rest: [`验证码 ${minutes} 分钟内有效，只能使用一次。如果这不是你本人的操作，请忽略此邮件。`],
    },
    {
      lead: `${words.en} (${host}):`,
      code,
      rest: [`The code is valid for ${minutes} minutes and works once. If you did not ask for it, ignore this message.`],
    },
  ];
  return { subject: `${words.subject} · ${host}`, text: textOf(parts), html: htmlOf(parts) };
}

/** Told to the owner of an address when someone tries to register it again. */
export function registrationAttemptMessage(publicUrl: string): MailMessage {
  const host = hostOf(publicUrl);
  const signIn = `${publicUrl}/login`;
  const parts: Part[] = [
    {
      lead: `有人尝试用此电子邮件地址在 ${host} 注册新账号，但这个地址已经有账号了。`,
      rest: [
        `如果是你本人：请直接登录（${signIn}）；忘记密码时，可在登录页选择“忘记密码”。`,
        '如果不是你本人，请忽略此邮件，你的账号没有任何变化。',
      ],
    },
    {
      lead: `Someone tried to register a new account at ${host} with this e-mail address, which already has an account.`,
      rest: [
        `If it was you, sign in (${signIn}); if you forgot your password, choose "Forgot password" on the sign-in page.`,
        'If it was not you, ignore this message; nothing about your account has changed.',
      ],
    },
  ];
  return { subject: `注册尝试 / Registration attempt · ${host}`, text: textOf(parts), html: htmlOf(parts) };
}
