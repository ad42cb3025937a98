import type { DOMPurify } from 'dompurify';
import type { Token } from 'markdown-it';
import { MARKDOWN_SANITIZE_CONFIG, createMarkdown, createSanitizer } from '../common/text/markdown.js';
import type { IssueCode } from './issue-codes.js';
import { IssueCollector, issueAt, type Position, type ValidationIssue } from './issues.js';

type AddIssue = (code: IssueCode, message: string, at: Position, params: Record<string, string | number>) => void;

const SCRIPT_URL = /^\s*(?:javascript|vbscript):/i;
// A fragment without a start tag (closing tags, comments) has nothing the sanitizer could drop.
const START_TAG = /<[A-Za-z]/;

// Reference links that markdown-it left as text because their label has no definition.
const FULL_REFERENCE = /(!?)\[((?:[^[\]\\]|\\.)*)\]\[((?:[^[\]\\]|\\.)*)\]/g;
// Inline links that markdown-it refused (unsafe or malformed destination) stay as text.
const REFUSED_INLINE_LINK = /(!?)\[((?:[^[\]\\]|\\.)*)\]\(((?:[^()\s]|\([^()\s]*\))*)\)/g;
const FENCE_LINE = /^(?:[ \t]*>)*[ \t]*(`{3,}|~{3,})[ \t]*$/;

const markdown = createMarkdown();

const describe: Partial<Record<IssueCode, string>> = {
  UNCLOSED_FENCE: '未闭合的代码块',
  UNDEFINED_REFERENCE: '未定义的链接引用',
  REFUSED_LINK: '未生效的链接',
  STRIPPED_TAG: '查看器会移除的 HTML 元素',
  STRIPPED_ATTRIBUTE: '查看器会移除的 HTML 属性',
};
const levels: Partial<Record<IssueCode, ValidationIssue['level']>> = {
  UNCLOSED_FENCE: 'error',
  UNDEFINED_REFERENCE: 'error',
  REFUSED_LINK: 'warning',
  STRIPPED_TAG: 'warning',
  STRIPPED_ATTRIBUTE: 'warning',
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

export interface StrippedHtml {
  tags: string[];
  attributes: Array<{ tag: string; name: string; reason: string }>;
}

let sanitizer: DOMPurify | undefined;
/** Each element's attributes in source order: DOMPurify goes through them from the last. */
const attributeOrder = new WeakMap<Node, string[]>();

function checkingSanitizer(): DOMPurify {
  if (!sanitizer) {
    sanitizer = createSanitizer();
    sanitizer.addHook('beforeSanitizeAttributes', (node) => {
      if (node.attributes?.length)
        attributeOrder.set(
          node,
          Array.from(node.attributes, (attribute) => attribute.name),
        );
    });
  }
  return sanitizer;
}

function attributeReason(name: string, value: string): string {
  if (/^on[a-z]/.test(name)) return '事件处理器';
  if (SCRIPT_URL.test(value)) return '脚本链接';
  return '不允许的属性';
}

/**
 * Elements and attributes of an HTML fragment that the viewer's sanitizer drops: the fragment
 * goes through DOMPurify with the viewer's settings, and its `removed` list is the answer.
 */
export function strippedHtml(fragment: string): StrippedHtml {
  const found: StrippedHtml = { tags: [], attributes: [] };
  if (!START_TAG.test(fragment)) return found;
  const purify = checkingSanitizer();
  // In a body, as in the middle of a rendered document: a leading <style> or <meta> would
  // otherwise go to the parser's <head> and be dropped without a word.
  purify.sanitize(fragment, { ...MARKDOWN_SANITIZE_CONFIG, FORCE_BODY: true });
  const removed = purify.removed;
  // FORCE_BODY puts its own marker element first, and removes it.
  const first = removed[0];
  const skip = first && 'element' in first && first.element.nodeName === 'REMOVE' ? 1 : 0;
  const attributes: Array<StrippedHtml['attributes'][number] & { element: number; rank: number }> = [];
  let element = -1;
  let from: Node | null = null;
  for (const entry of removed.slice(skip)) {
    if ('element' in entry) {
      if (entry.element.nodeType === 1) found.tags.push(entry.element.nodeName.toLowerCase());
      continue;
    }
    if (!entry.attribute) continue;
    if (entry.from !== from) {
      from = entry.from;
      element++;
    }
    const name = entry.attribute.name.toLowerCase();
    attributes.push({
      tag: entry.from.nodeName.toLowerCase(),
      name,
      reason: attributeReason(name, entry.attribute.value),
      element,
      rank: attributeOrder.get(entry.from)?.indexOf(entry.attribute.name) ?? 0,
    });
  }
  attributes.sort((a, b) => a.element - b.element || a.rank - b.rank);
  found.attributes = attributes.map(({ tag, name, reason }) => ({ tag, name, reason }));
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
  const add: AddIssue = (code, message, at, params) => collector.add(issueAt(levels[code]!, code, message, at, params));

  // Documents repeat their HTML (<br>, <details>…): each distinct fragment is sanitized once.
  const strippedOf = new Map<string, StrippedHtml>();
  const reportHtml = (fragment: string, search: BlockSearch) => {
    let stripped = strippedOf.get(fragment);
    if (!stripped) {
      stripped = strippedHtml(fragment);
      strippedOf.set(fragment, stripped);
    }
    for (const tag of stripped.tags) {
      add('STRIPPED_TAG', `原始 HTML <${tag}> 会被查看器移除`, search.find(`<${tag}`) ?? search.blockStart, { tag });
    }
    for (const attribute of stripped.attributes) {
      add(
        'STRIPPED_ATTRIBUTE',
        `<${attribute.tag}> 的 ${attribute.name} 属性（${attribute.reason}）会被查看器移除`,
        search.find(attribute.name) ?? search.blockStart,
        { tag: attribute.tag, attribute: attribute.name },
      );
    }
  };

  for (const token of tokens) {
    const map = token.map ?? [0, lines.length];
    if (token.type === 'fence') {
      const closing = map[1] - 1 > map[0] ? FENCE_LINE.exec(lines[map[1] - 1] ?? '') : null;
      const opener = token.markup;
      const closed = closing !== null && closing[1]![0] === opener[0] && closing[1]!.length >= opener.length;
      if (!closed)
        add(
          'UNCLOSED_FENCE',
          `代码块（${opener}）没有闭合：之后的全部内容都会显示为代码`,
          { line: map[0] + 1, col: 1 },
          { fence: opener },
        );
    } else if (token.type === 'html_block') {
      reportHtml(token.content, new BlockSearch(lines, map[0], map[1]));
    } else if (token.type === 'inline' && token.children) {
      checkInline(token.children, new BlockSearch(lines, map[0], map[1]), references, add, reportHtml);
    }
  }
  return collector.finish((code) => describe[code]!);
}

function checkInline(
  children: Token[],
  search: BlockSearch,
  references: Record<string, unknown>,
  add: AddIssue,
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
      add('UNDEFINED_REFERENCE', `${match[1] ? '图片' : '链接'}引用 [${label}] 没有定义`, at, { label });
    }
    for (const match of child.content.matchAll(REFUSED_INLINE_LINK)) {
      const at = search.find(match[0]);
      if (!at) continue;
      add('REFUSED_LINK', `${match[1] ? '图片' : '链接'}地址「${match[3]}」无效或不安全，渲染时会显示为纯文本`, at, {
        url: match[3]!,
      });
    }
  }
}
