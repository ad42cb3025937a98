import { LOCALES, type LocaleTag } from '@sharedown/i18n';

/**
 * The language of the CLI's messages about the service's answers (api errors, validation
 * issues): the locale of LC_ALL, LC_MESSAGES or LANG, the first one set, as POSIX orders them
 * (`de_DE.UTF-8` reads as German, any `zh_*` as Chinese); English for C, POSIX or a language
 * Sharedown does not speak. The CLI's own help stays English.
 */
export function messageLocale(env: Record<string, string | undefined>): LocaleTag {
  const setting = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  const language = setting?.split(/[_.@-]/)[0]?.toLowerCase();
  if (language === 'zh') return 'zh-CN';
  return LOCALES.find((tag) => tag === language) ?? 'en';
}
