import type { IssueCode } from './issue-codes.js';
import { IssueCollector, createLocator, issueAt, type ValidationIssue } from './issues.js';

// Every C0 control except TAB and LF, DEL, and the C1 controls. CR is handled on its own.
const CONTROL = /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function codeOf(character: string): string {
  return `U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

const descriptions: Partial<Record<IssueCode, string>> = {
  CONTROL_CHARACTER: '无效的控制字符',
  FORM_FEED: '换页符',
  BARE_CR: '单独的回车符',
  LONE_SURROGATE: '不成对的 UTF-16 代理项',
  REPLACEMENT_CHARACTER: 'Unicode 替换字符',
};

/**
 * Characters that do not belong in a text document: control characters (errors), a form
 * feed or a carriage return without line feed (warnings), broken UTF-16 (error), and U+FFFD,
 * which usually means the text was decoded with the wrong encoding (warning).
 */
export function checkText(text: string): ValidationIssue[] {
  const locate = createLocator(text);
  const collector = new IssueCollector();
  for (const match of text.matchAll(CONTROL)) {
    const character = match[0];
    if (character === '\f') {
      collector.add(issueAt('warning', 'FORM_FEED', '换页符（U+000C）在多数查看器中不可见', locate(match.index)));
    } else {
      collector.add(
        issueAt('error', 'CONTROL_CHARACTER', `无效的控制字符 ${codeOf(character)}`, locate(match.index), {
          character: codeOf(character),
        }),
      );
    }
  }
  for (let index = text.indexOf('\r'); index !== -1; index = text.indexOf('\r', index + 1)) {
    if (text.charCodeAt(index + 1) !== 0x0a) {
      collector.add(issueAt('warning', 'BARE_CR', '单独的回车符（CR，U+000D）：换行应使用 LF', locate(index)));
    }
  }
  for (const match of text.matchAll(LONE_SURROGATE)) {
    collector.add(
      issueAt(
        'error',
        'LONE_SURROGATE',
        `不成对的 UTF-16 代理项 ${codeOf(match[0])}：不是有效的 Unicode 文本`,
        locate(match.index),
        {
          character: codeOf(match[0]),
        },
      ),
    );
  }
  for (let index = text.indexOf('\ufffd'); index !== -1; index = text.indexOf('\ufffd', index + 1)) {
    collector.add(issueAt('warning', 'REPLACEMENT_CHARACTER', '替换字符 U+FFFD：文本可能曾以错误的编码解码', locate(index)));
  }
  return collector.finish((code) => descriptions[code]!);
}
