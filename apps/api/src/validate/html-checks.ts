import { QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import type { IssueCode } from './issue-codes.js';
import { IssueCollector, createLocator, issueAt, type Position, type ValidationIssue } from './issues.js';

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'basefont',
  'bgsound',
  'frame',
  'keygen',
]);

// Elements whose end tag HTML lets the author leave out; never "unclosed".
const OPTIONAL_END = new Set([
  'html',
  'head',
  'body',
  'p',
  'li',
  'dt',
  'dd',
  'option',
  'optgroup',
  'rb',
  'rt',
  'rtc',
  'rp',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'colgroup',
  'caption',
]);

const FOREIGN_ROOTS = new Set(['svg', 'math']);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data']);

interface OpenElement {
  name: string;
  at: Position;
  foreign: boolean;
}

interface Attribute {
  name: string;
  value: string;
  at: Position;
}

export interface HtmlScan {
  issues: ValidationIssue[];
  hasDoctype: boolean;
  hasTitle: boolean;
}

const describe: Partial<Record<IssueCode, string>> = {
  UNCLOSED_TAG: '未闭合的标签',
  MISMATCHED_END_TAG: '不匹配的结束标签',
  STRAY_END_TAG: '多余的结束标签',
  DUPLICATE_ID: '重复的 id',
  DUPLICATE_ATTRIBUTE: '重复的属性',
  SCRIPT_ELEMENT: '<script> 元素',
  EVENT_HANDLER: '内联事件处理器',
  JAVASCRIPT_URL: 'javascript: 链接',
  SELF_CLOSING_NON_VOID: '非空元素的自闭合写法',
};
const levelOf: Partial<Record<IssueCode, ValidationIssue['level']>> = {
  UNCLOSED_TAG: 'error',
  MISMATCHED_END_TAG: 'error',
  STRAY_END_TAG: 'error',
  DUPLICATE_ID: 'error',
  DUPLICATE_ATTRIBUTE: 'warning',
  SCRIPT_ELEMENT: 'warning',
  EVENT_HANDLER: 'warning',
  JAVASCRIPT_URL: 'warning',
  SELF_CLOSING_NON_VOID: 'warning',
};

/**
 * Walks an HTML document with htmlparser2's tokenizer (so script, style, comments and
 * character references are read as a browser reads them) and keeps its own element stack
 * to report what the tree builder would silently repair.
 */
export function scanHtml(html: string): HtmlScan {
  const locate = createLocator(html);
  const collector = new IssueCollector();
  const stack: OpenElement[] = [];
  const ids = new Map<string, Position>();
  let hasDoctype = false;
  let hasTitle = false;
  let seenElement = false;

  let tagName = '';
  let tagAt: Position = { line: 1, col: 1 };
  let attributes: Attribute[] = [];
  let attributeName = '';
  let attributeAt: Position = tagAt;
  let attributeValue = '';
  let titleDepth = -1;
  let titleText = '';

  const add = (code: IssueCode, message: string, at: Position, params: Record<string, string | number>) =>
    collector.add(issueAt(levelOf[code]!, code, message, at, params));
  const inForeign = () => stack.length > 0 && stack[stack.length - 1]!.foreign;

  function checkAttributes(): void {
    const seen = new Set<string>();
    for (const attribute of attributes) {
      if (seen.has(attribute.name)) {
        add('DUPLICATE_ATTRIBUTE', `<${tagName}> 的属性 ${attribute.name} 重复出现，浏览器只采用第一个`, attribute.at, {
          tag: tagName,
          attribute: attribute.name,
        });
        continue;
      }
      seen.add(attribute.name);
      if (attribute.name === 'id' && attribute.value) {
        const first = ids.get(attribute.value);
        if (first)
          add('DUPLICATE_ID', `重复的 id "${attribute.value}"（首次出现在第 ${first.line} 行第 ${first.col} 列）`, attribute.at, {
            id: attribute.value,
            line: first.line,
            col: first.col,
          });
        else ids.set(attribute.value, attribute.at);
      }
      if (/^on[a-z]/.test(attribute.name)) {
        add(
          'EVENT_HANDLER',
          `内联事件处理器 ${attribute.name}：脚本只在隔离的沙箱视图中运行，无法访问查看者的会话`,
          attribute.at,
          {
            attribute: attribute.name,
          },
        );
      }
      if (URL_ATTRIBUTES.has(attribute.name) && /^\s*javascript:/i.test(attribute.value)) {
        add('JAVASCRIPT_URL', `${attribute.name} 使用 javascript: 链接：脚本只在隔离的沙箱视图中运行`, attribute.at, {
          attribute: attribute.name,
        });
      }
    }
  }

  function open(selfClosing: boolean): void {
    if (!tagName) return;
    seenElement = true;
    checkAttributes();
    const foreign = inForeign() || FOREIGN_ROOTS.has(tagName);
    if (tagName === 'script')
      add('SCRIPT_ELEMENT', '<script> 元素：脚本只在隔离的沙箱视图中运行，无法访问查看者的会话', tagAt, {});
    if (VOID_ELEMENTS.has(tagName) && !foreign) return;
    if (selfClosing && foreign) return;
    if (selfClosing) {
      add('SELF_CLOSING_NON_VOID', `<${tagName}/> 的自闭合写法在 HTML 中无效，元素仍然保持打开`, tagAt, { tag: tagName });
    }
    stack.push({ name: tagName, at: tagAt, foreign });
    if (tagName === 'title' && !foreign) {
      titleDepth = stack.length;
      titleText = '';
    }
  }

  function close(name: string, at: Position): void {
    if (VOID_ELEMENTS.has(name) && !inForeign()) return;
    let index = stack.length - 1;
    while (index >= 0 && stack[index]!.name !== name) index--;
    if (index < 0) {
      add('STRAY_END_TAG', `结束标签 </${name}> 没有对应的开始标签`, at, { tag: name });
      return;
    }
    for (let inner = stack.length - 1; inner > index; inner--) {
      const element = stack[inner]!;
      if (OPTIONAL_END.has(element.name) && !element.foreign) continue;
      add(
        'MISMATCHED_END_TAG',
        `结束标签 </${name}> 与未闭合的 <${element.name}>（第 ${element.at.line} 行第 ${element.at.col} 列）不匹配`,
        at,
        { tag: name, open: element.name, line: element.at.line, col: element.at.col },
      );
    }
    if (titleDepth === index + 1) {
      if (titleText.trim()) hasTitle = true;
      titleDepth = -1;
    }
    stack.length = index;
  }

  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      tagName = html.slice(start, end).toLowerCase();
      tagAt = locate(start - 1);
      attributes = [];
    },
    onattribname(start, end) {
      attributeName = html.slice(start, end).toLowerCase();
      attributeAt = locate(start);
      attributeValue = '';
    },
    onattribdata(start, end) {
      attributeValue += html.slice(start, end);
    },
    onattribentity(codepoint) {
      attributeValue += String.fromCodePoint(codepoint);
    },
    onattribend(quote) {
      attributes.push({ name: attributeName, value: quote === QuoteType.NoValue ? '' : attributeValue, at: attributeAt });
    },
    onopentagend() {
      open(false);
      tagName = '';
    },
    onselfclosingtag() {
      open(true);
      tagName = '';
    },
    onclosetag(start, end) {
      close(html.slice(start, end).toLowerCase(), locate(Math.max(0, start - 2)));
    },
    ondeclaration(start, end) {
      if (/^doctype\b/i.test(html.slice(start, end).trimStart()) && !seenElement) hasDoctype = true;
    },
    ontext(start, end) {
      if (titleDepth === stack.length) titleText += html.slice(start, end);
    },
    ontextentity(codepoint) {
      if (titleDepth === stack.length) titleText += String.fromCodePoint(codepoint);
    },
    oncdata() {},
    oncomment() {},
    onprocessinginstruction() {},
    onend() {},
    isInForeignContext: inForeign,
  };

  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();

  for (const element of stack) {
    if (OPTIONAL_END.has(element.name) && !element.foreign) continue;
    add('UNCLOSED_TAG', `<${element.name}> 没有闭合`, element.at, { tag: element.name });
  }
  return {
    issues: collector.finish((code) => describe[code]!),
    hasDoctype,
    hasTitle,
  };
}

/** HTML checks of the validate operation: structure errors, then document-level warnings. */
export function checkHtml(html: string): ValidationIssue[] {
  const scan = scanHtml(html);
  const issues = [...scan.issues];
  if (!scan.hasDoctype) issues.push(issueAt('warning', 'MISSING_DOCTYPE', '缺少 <!DOCTYPE html> 声明，浏览器会以怪异模式渲染'));
  if (!scan.hasTitle) issues.push(issueAt('warning', 'MISSING_TITLE', '缺少非空的 <title> 元素'));
  return issues;
}
