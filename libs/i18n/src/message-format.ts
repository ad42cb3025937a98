/**
 * The one message catalog format of the viewer, the console and the CLI: a tree of plain objects
 * whose leaves are non-empty strings, one tree per language with the same keys. Messages are
 * written in ICU MessageFormat, the part of it a catalog needs:
 *
 * - `{name}` puts in a value;
 * - `{count, plural, =0 {no files} one {# file} other {# files}}` picks a wording by the number,
 *   with exact `=N` cases first, then the language's CLDR category (Intl.PluralRules), then
 *   `other`; `#` is the number written the language's way;
 * - `{kind, select, folder {…} other {…}}` picks a wording by a word.
 *
 * Apostrophes are plain text (no ICU quoting), so French and English text need no escaping.
 * `@`, `|` and `$` stay out of the text: the console's older vue-i18n syntax reads them.
 */
export interface Catalog {
  readonly [key: string]: string | Catalog;
}

/** The shape of a catalog with every leaf widened to string: what the other languages must fill. */
export type CatalogOf<T> = { readonly [K in keyof T]: T[K] extends string ? string : CatalogOf<T[K]> };

export type MessageParams = Readonly<Record<string, string | number>>;

/** A message read into text, arguments, the plural number `#` and choices by plural or select. */
export type MessagePart =
  | string
  | { kind: 'value'; name: string; source: string }
  | { kind: 'number' }
  | { kind: 'plural' | 'select'; name: string; source: string; cases: ReadonlyMap<string, MessagePart[]> };

/** A message that is not well-formed ICU: an unclosed choice, a choice without `other`. */
export class MessageSyntaxError extends Error {}

const WORD = /^\s*(\w+)\s*/;
const CASE_KEY = /^\s*(=\d+|\w+)\s*/;

class MessageParser {
  private at = 0;

  constructor(private readonly text: string) {}

  parse(): MessagePart[] {
    const parts = this.parts(false, false);
    if (this.at < this.text.length) throw new MessageSyntaxError(`unexpected } at ${this.at}`);
    return parts;
  }

  /** Text and arguments up to the end, or (inside a case) up to the case's closing brace. */
  private parts(inCase: boolean, inPlural: boolean): MessagePart[] {
    const parts: MessagePart[] = [];
    let text = '';
    while (this.at < this.text.length) {
      const char = this.text[this.at]!;
      if (char === '}' && inCase) break;
      if (char === '#' && inPlural) {
        if (text) parts.push(text);
        text = '';
        parts.push({ kind: 'number' });
        this.at++;
        continue;
      }
      if (char === '{') {
        const argument = this.argument(inPlural);
        if (argument) {
          if (text) parts.push(text);
          text = '';
          parts.push(argument);
          continue;
        }
      }
      text += char;
      this.at++;
    }
    if (text) parts.push(text);
    return parts;
  }

  /** An argument at `{`, or null when the brace is plain text (the caller keeps it as written). */
  private argument(inPlural: boolean): MessagePart | null {
    const start = this.at;
    const name = WORD.exec(this.text.slice(start + 1));
    if (!name) return null;
    let at = start + 1 + name[0].length;
    if (this.text[at] === '}') {
      this.at = at + 1;
      return { kind: 'value', name: name[1]!, source: this.text.slice(start, this.at) };
    }
    if (this.text[at] !== ',') return null;
    const type = WORD.exec(this.text.slice(at + 1));
    if (!type || (type[1] !== 'plural' && type[1] !== 'select')) return null;
    at += 1 + type[0].length;
    if (this.text[at] !== ',') throw new MessageSyntaxError(`expected , after ${type[1]} at ${at}`);
    this.at = at + 1;
    const cases = new Map<string, MessagePart[]>();
    for (;;) {
      const key = CASE_KEY.exec(this.text.slice(this.at));
      if (!key) break;
      this.at += key[0].length;
      if (this.text[this.at] !== '{') throw new MessageSyntaxError(`expected { after case ${key[1]} at ${this.at}`);
      this.at++;
      cases.set(key[1]!, this.parts(true, type[1] === 'plural' || inPlural));
      if (this.text[this.at] !== '}') throw new MessageSyntaxError(`case ${key[1]} is not closed`);
      this.at++;
    }
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
    if (this.text[this.at] !== '}') throw new MessageSyntaxError(`${type[1]} {${name[1]}} is not closed`);
    if (!cases.has('other')) throw new MessageSyntaxError(`${type[1]} {${name[1]}} has no other case`);
    this.at++;
    return { kind: type[1], name: name[1]!, source: this.text.slice(start, this.at), cases };
  }
}

const parsed = new Map<string, MessagePart[]>();

/** The parts of a message, read once per distinct text. Throws MessageSyntaxError. */
export function parseMessage(template: string): MessagePart[] {
  let parts = parsed.get(template);
  if (!parts) {
    parts = new MessageParser(template).parse();
    parsed.set(template, parts);
  }
  return parts;
}

const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function cached<T>(cache: Map<string, T>, locale: string, make: () => T): T {
  let value = cache.get(locale);
  if (!value) {
    value = make();
    cache.set(locale, value);
  }
  return value;
}

function render(parts: readonly MessagePart[], params: MessageParams, locale: string, count: number | null): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') out += part;
    else if (part.kind === 'number')
      out += count === null ? '#' : cached(numberFormats, locale, () => new Intl.NumberFormat(locale)).format(count);
    else if (!(part.name in params)) out += part.source;
    else if (part.kind === 'value') out += String(params[part.name]);
    else {
      const value = params[part.name]!;
      let chosen: MessagePart[] | undefined;
      let number = count;
      if (part.kind === 'plural') {
        number = Number(value);
        chosen =
          part.cases.get(`=${number}`) ??
          part.cases.get(cached(pluralRules, locale, () => new Intl.PluralRules(locale)).select(number));
      } else chosen = part.cases.get(String(value));
      out += render(chosen ?? part.cases.get('other')!, params, locale, number);
    }
  }
  return out;
}

/**
 * Writes a message with its values in `locale` (a BCP 47 tag; plural categories and `#` follow
 * it). An argument without a value stays as written, so a gap shows.
 */
export function formatMessage(template: string, params: MessageParams = {}, locale = 'en'): string {
  return render(parseMessage(template), params, locale, null);
}

function namesOf(parts: readonly MessagePart[], names: Set<string>): Set<string> {
  for (const part of parts) {
    if (typeof part === 'string' || part.kind === 'number') continue;
    names.add(part.name);
    if (part.kind !== 'value') for (const inner of part.cases.values()) namesOf(inner, names);
  }
  return names;
}

/** The argument names of a message, sorted, each once. */
export function placeholdersOf(template: string): string[] {
  return [...namesOf(parseMessage(template), new Set())].sort();
}

/** The argument names a message chooses a wording by (plural and select), sorted. */
export function choicesOf(template: string): string[] {
  const names = new Set<string>();
  const visit = (parts: readonly MessagePart[]) => {
    for (const part of parts) {
      if (typeof part === 'string' || part.kind === 'number' || part.kind === 'value') continue;
      names.add(part.name);
      for (const inner of part.cases.values()) visit(inner);
    }
  };
  visit(parseMessage(template));
  return [...names].sort();
}
