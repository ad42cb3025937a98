/** What the placeholders of a watermark template say about one view; null: nothing to say. */
export interface WatermarkFacts {
  /** The signed-in visitor's proven address. */
  email: string | null;
  /** The name given on this visitor's acceptance of the current agreement. */
  name: string | null;
  /** The instant of the view; `{date}` is its UTC day (YYYY-MM-DD). */
  at: Date;
  /** The masked IP prefix. */
  ip: string | null;
}

export const WATERMARK_PLACEHOLDERS = ['email', 'name', 'date', 'ip'] as const;
type Placeholder = (typeof WATERMARK_PLACEHOLDERS)[number];

const PLACEHOLDER = /\{(email|name|date|ip)\}/g;
// Text between placeholders made only of spaces and punctuation that joins parts: " · ", " - ", ", ", " | ", " / ".
const SEPARATOR = /^[\s·•|/\\,;:\-–—_~+]*$/u;
const EMPTY_BRACKETS = /\(\s*\)|\[\s*\]|（\s*）|【\s*】|<\s*>/g;

type Part = { kind: 'text'; text: string; separator: boolean } | { kind: 'value'; text: string };

function valueOf(placeholder: Placeholder, facts: WatermarkFacts): string {
  switch (placeholder) {
    case 'email':
      return facts.email ?? '';
    case 'name':
      return facts.name ?? '';
    case 'date':
      return facts.at.toISOString().slice(0, 10);
    case 'ip':
      return facts.ip ?? '';
  }
}

/** Whether a template names anything about the viewer. */
export function hasPlaceholders(template: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(template);
}

/**
 * A watermark template for one view: `{email}`, `{name}`, `{date}` and `{ip}` replaced by what
 * they say. A placeholder with nothing to say leaves nothing, never its braces, and the joining
 * text beside it goes too: "{name} · {email}" without a name is "email", not " · email". Other
 * text stays as written (whitespace runs become one space, and empty brackets left behind go).
 */
export function watermarkText(template: string, facts: WatermarkFacts): string {
  const parts: Part[] = [];
  // Separators next to a placeholder that said nothing: they joined it to something.
  const loose = new Set<number>();
  let last = 0;
  let emptyBefore = false;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const text = template.slice(last, match.index);
    if (text) {
      parts.push({ kind: 'text', text, separator: SEPARATOR.test(text) });
      if (emptyBefore) loose.add(parts.length - 1);
    }
    const value = valueOf(match[1] as Placeholder, facts);
    if (value) {
      parts.push({ kind: 'value', text: value });
      emptyBefore = false;
    } else {
      const previous = parts.length - 1;
      if (previous >= 0 && parts[previous]!.kind === 'text') loose.add(previous);
      emptyBefore = true;
    }
    last = match.index + match[0].length;
  }
  const tail = template.slice(last);
  if (tail) {
    parts.push({ kind: 'text', text: tail, separator: SEPARATOR.test(tail) });
    if (emptyBefore) loose.add(parts.length - 1);
  }
  const kept: string[] = [];
  let run: number[] = [];
  const flush = (atEdge: boolean) => {
    const anyLoose = run.some((index) => loose.has(index));
    if (!anyLoose) kept.push(...run.map((index) => parts[index]!.text));
    else if (!atEdge) kept.push(parts[run[0]!]!.text);
    else kept.push(...run.filter((index) => !loose.has(index)).map((index) => parts[index]!.text));
    run = [];
  };
  parts.forEach((part, index) => {
    if (part.kind === 'text' && part.separator) {
      run.push(index);
      return;
    }
    if (run.length) flush(kept.length === 0);
    kept.push(part.text);
  });
  if (run.length) flush(true);
  return kept.join('').replace(EMPTY_BRACKETS, '').replace(/\s+/g, ' ').trim();
}
