/**
 * The one message catalog format of the viewer, the console and the CLI: a tree of plain objects
 * whose leaves are non-empty strings, one tree per language with the same keys, and named
 * placeholders written `{name}` (the syntax vue-i18n reads too). `@`, `|` and `$` stay out of the
 * text because vue-i18n would read them as syntax.
 */
export interface Catalog {
  readonly [key: string]: string | Catalog;
}

/** The shape of a catalog with every leaf widened to string: what the other languages must fill. */
export type CatalogOf<T> = { readonly [K in keyof T]: T[K] extends string ? string : CatalogOf<T[K]> };

const PLACEHOLDER = /\{(\w+)\}/g;

/** Fills `{name}` placeholders; a placeholder without a value stays as written, so a gap shows. */
export function formatMessage(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The placeholder names of a message, sorted, each once. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]!))].sort();
}
