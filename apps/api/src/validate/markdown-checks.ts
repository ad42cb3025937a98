import MarkdownIt, { type Token } from 'markdown-it';
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { IssueCollector, issueAt, type Position, type ValidationIssue } from './issues.js';

/**
 * What the viewer's sanitizer (DOMPurify, HTML profile, see viewer/content-renderer.ts)
 * removes from rendered Markdown: unsafe and form elements, SVG and MathML, event handlers,
 * style/id/name attributes, and script URLs.
 */
export const STRIPPED_TAGS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'link',
  'meta',
  'base',
  'noscript',
  'template',
  'title',
  'xmp',
  'plaintext',
  'portal',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'svg',
  'math',
]);
export const STRIPPED_ATTRIBUTES = new Set(['style', 'id', 'name', 'srcdoc']);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'background', 'poster']);
const SCRIPT_URL = /^\s*(?:javascript|vbscript):/i;

// Reference links that markdown-it left as text because their label has no definition.
const FULL_REFERENCE = /(!?)\[((?:[^[\]\\]|\\.)*)\]\[((?:[^[\]\\]|\\.)*)\]/g;
// Inline links that markdown-it refused (unsafe or malformed destination) stay as text.
const REFUSED_INLINE_LINK = /(!?)\[((?:[^[\]\\]|\\.)*)\]\(((?:[^()\s]|\([^()\s]*\))*)\)/g;
const FENCE_LINE = /^(?:[ \t]*>)*[ \t]*(`{3,}|~{3,})[ \t]*$/;

const markdown = new MarkdownIt({ html: true, linkify: true });

const describe: Record<string, string> = {
  fence: '未闭合的代码块',
  reference: '未定义的链接引用',
  'refused-link': '未生效的链接',
  'stripped-tag': '查看器会移除的 HTML 元素',
  'stripped-attribute': '查看器会移除的 HTML 属性',
};
const levels: Record<string, ValidationIssue['level']> = {
  fence: 'error',
  reference: 'error',
  'refused-link': 'warning',
  'stripped-tag': 'warning',
  'stripped-attribute': 'warning',
};

/** Finds text inside a block's source lines, searching on from the last hit of the same block. */
class BlockSearch {
  private line: number;
  private col = 0;

  constructor(
    private readonly lines: string[],
    private readonly start: number,
    private readonly end: number,
  ) {
    this.line = start;
  }

  find(needle: string): Position | undefined {
    for (let line = this.line; line < this.end && line < this.lines.length; line++) {
      const index = this.lines[line]!.indexOf(needle, line === this.line ? this.col : 0);
      if (index !== -1) {
        this.line = line;
        this.col = index + needle.length;
        return { line: line + 1, col: index + 1 };
      }
    }
    return undefined;
  }

  get blockStart(): Position {
    return { line: this.start + 1, col: 1 };
  }
}

interface StrippedHtml {
  tags: string[];
  attributes: Array<{ tag: string; name: string; reason: string }>;
}

/** Elements and attributes of an HTML fragment that the viewer's sanitizer would drop. */
export function strippedHtml(fragment: string): StrippedHtml {
  const found: StrippedHtml = { tags: [], attributes: [] };
  let tag = '';
  let name = '';
  let value = '';
  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      tag = fragment.slice(start, end).toLowerCase();
      if (STRIPPED_TAGS.has(tag)) found.tags.push(tag);
    },
    onattribname(start, end) {
      name = fragment.slice(start, end).toLowerCase();
      value = '';
    },
    onattribdata(start, end) {
      value += fragment.slice(start, end);
    },
    onattribentity(codepoint) {
      value += String.fromCodePoint(codepoint);
    },
    onattribend() {
      if (STRIPPED_TAGS.has(tag)) return;
      if (/^on[a-z]/.test(name)) found.attributes.push({ tag, name, reason: '事件处理器' });
      else if (STRIPPED_ATTRIBUTES.has(name)) found.attributes.push({ tag, name, reason: '不允许的属性' });
      else if (URL_ATTRIBUTES.has(name) && SCRIPT_URL.test(value)) found.attributes.push({ tag, name, reason: '脚本链接' });
    },
    onopentagend() {},
    onselfclosingtag() {},
    onclosetag() {},
    ondeclaration() {},
    ontext() {},
    ontextentity() {},
    oncdata() {},
    oncomment() {},
    onprocessinginstruction() {},
    onend() {},
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(fragment);
  tokenizer.end();
  return found;
}

/**
 * Markdown checks, on markdown-it's own parse (the renderer the viewer uses): code fences
 * left open, reference links without a definition, links markdown-it refused, and raw HTML
 * the viewer will strip.
 */
export function checkMarkdown(text: string): ValidationIssue[] {
  const env: Parameters<typeof markdown.parse>[1] = {};
  const tokens = markdown.parse(text, env);
  const lines = text.split('\n');
  const references: Record<string, unknown> = env.references ?? {};
  const collector = new IssueCollector();
  const add = (kind: string, message: string, at?: Position) => collector.add(kind, issueAt(levels[kind]!, message, at));

  const reportHtml = (fragment: string, search: BlockSearch) => {
    const stripped = strippedHtml(fragment);
    for (const tag of stripped.tags) {
      add('stripped-tag', `原始 HTML <${tag}> 会被查看器移除`, search.find(`<${tag}`) ?? search.blockStart);
    }
    for (const attribute of stripped.attributes) {
      add(
        'stripped-attribute',
        `<${attribute.tag}> 的 ${attribute.name} 属性（${attribute.reason}）会被查看器移除`,
        search.find(attribute.name) ?? search.blockStart,
      );
    }
  };

  for (const token of tokens) {
    const map = token.map ?? [0, lines.length];
    if (token.type === 'fence') {
      const closing = map[1] - 1 > map[0] ? FENCE_LINE.exec(lines[map[1] - 1] ?? '') : null;
      const opener = token.markup;
      const closed = closing !== null && closing[1]![0] === opener[0] && closing[1]!.length >= opener.length;
      if (!closed) add('fence', `代码块（${opener}）没有闭合：之后的全部内容都会显示为代码`, { line: map[0] + 1, col: 1 });
    } else if (token.type === 'html_block') {
      reportHtml(token.content, new BlockSearch(lines, map[0], map[1]));
    } else if (token.type === 'inline' && token.children) {
      checkInline(token.children, new BlockSearch(lines, map[0], map[1]), references, add, reportHtml);
    }
  }
  return collector.finish(
    (kind) => describe[kind]!,
    (kind) => levels[kind]!,
  );
}

function checkInline(
  children: Token[],
  search: BlockSearch,
  references: Record<string, unknown>,
  add: (kind: string, message: string, at?: Position) => void,
  reportHtml: (fragment: string, search: BlockSearch) => void,
): void {
  for (const child of children) {
    if (child.type === 'html_inline') {
      reportHtml(child.content, search);
      continue;
    }
    if (child.type !== 'text') continue;
    for (const match of child.content.matchAll(FULL_REFERENCE)) {
      const label = match[3] || match[2]!;
      if (!label.trim() || markdown.utils.normalizeReference(label) in references) continue;
      // Escaped brackets (\[ \]) read the same after parsing; only what is literally in the source counts.
      const at = search.find(match[0]);
      if (!at) continue;
      add('reference', `${match[1] ? '图片' : '链接'}引用 [${label}] 没有定义`, at);
    }
    for (const match of child.content.matchAll(REFUSED_INLINE_LINK)) {
      const at = search.find(match[0]);
      if (!at) continue;
      add('refused-link', `${match[1] ? '图片' : '链接'}地址「${match[3]}」无效或不安全，渲染时会显示为纯文本`, at);
    }
  }
}
