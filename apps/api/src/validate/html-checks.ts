import { QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
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

const describe: Record<string, string> = {
  unclosed: '未闭合的标签',
  mismatched: '不匹配的结束标签',
  stray: '多余的结束标签',
  'duplicate-id': '重复的 id',
  'duplicate-attribute': '重复的属性',
  script: '<script> 元素',
  handler: '内联事件处理器',
  'javascript-url': 'javascript: 链接',
  'self-closing': '非空元素的自闭合写法',
};
const levelOf: Record<string, ValidationIssue['level']> = {
  unclosed: 'error',
  mismatched: 'error',
  stray: 'error',
  'duplicate-id': 'error',
  'duplicate-attribute': 'warning',
  script: 'warning',
  handler: 'warning',
  'javascript-url': 'warning',
  'self-closing': 'warning',
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

  const add = (kind: string, message: string, at?: Position) => collector.add(kind, issueAt(levelOf[kind]!, message, at));
  const inForeign = () => stack.length > 0 && stack[stack.length - 1]!.foreign;

  function checkAttributes(): void {
    const seen = new Set<string>();
    for (const attribute of attributes) {
      if (seen.has(attribute.name)) {
        add('duplicate-attribute', `<${tagName}> 的属性 ${attribute.name} 重复出现，浏览器只采用第一个`, attribute.at);
        continue;
      }
      seen.add(attribute.name);
      if (attribute.name === 'id' && attribute.value) {
        const first = ids.get(attribute.value);
        if (first)
          add('duplicate-id', `重复的 id "${attribute.value}"（首次出现在第 ${first.line} 行第 ${first.col} 列）`, attribute.at);
        else ids.set(attribute.value, attribute.at);
      }
      if (/^on[a-z]/.test(attribute.name)) {
        add('handler', `内联事件处理器 ${attribute.name}：脚本只在隔离的沙箱视图中运行，无法访问查看者的会话`, attribute.at);
      }
      if (URL_ATTRIBUTES.has(attribute.name) && /^\s*javascript:/i.test(attribute.value)) {
        add('javascript-url', `${attribute.name} 使用 javascript: 链接：脚本只在隔离的沙箱视图中运行`, attribute.at);
      }
    }
  }

  function open(selfClosing: boolean): void {
    if (!tagName) return;
    seenElement = true;
    checkAttributes();
    const foreign = inForeign() || FOREIGN_ROOTS.has(tagName);
    if (tagName === 'script') add('script', '<script> 元素：脚本只在隔离的沙箱视图中运行，无法访问查看者的会话', tagAt);
    if (VOID_ELEMENTS.has(tagName) && !foreign) return;
    if (selfClosing && foreign) return;
    if (selfClosing) {
      add('self-closing', `<${tagName}/> 的自闭合写法在 HTML 中无效，元素仍然保持打开`, tagAt);
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
      add('stray', `结束标签 </${name}> 没有对应的开始标签`, at);
      return;
    }
    for (let inner = stack.length - 1; inner > index; inner--) {
      const element = stack[inner]!;
      if (OPTIONAL_END.has(element.name) && !element.foreign) continue;
      add(
        'mismatched',
        `结束标签 </${name}> 与未闭合的 <${element.name}>（第 ${element.at.line} 行第 ${element.at.col} 列）不匹配`,
        at,
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
    add('unclosed', `<${element.name}> 没有闭合`, element.at);
  }
  return {
    issues: collector.finish(
      (kind) => describe[kind]!,
      (kind) => levelOf[kind]!,
    ),
    hasDoctype,
    hasTitle,
  };
}

/** HTML checks of the validate operation: structure errors, then document-level warnings. */
export function checkHtml(html: string): ValidationIssue[] {
  const scan = scanHtml(html);
  const issues = [...scan.issues];
  if (!scan.hasDoctype) issues.push({ level: 'warning', message: '缺少 <!DOCTYPE html> 声明，浏览器会以怪异模式渲染' });
  if (!scan.hasTitle) issues.push({ level: 'warning', message: '缺少非空的 <title> 元素' });
  return issues;
}
