import { MessageSyntaxError, parseMessage, placeholdersOf } from './message-format.js';

/** A word with its plural ending in brackets: view(s), Aufruf(e), Datei(en), error(es), actif(s). */
const LAZY_PLURAL = /\p{L}+\((?:s|e|en|n|es|er|x|nen|innen)\)/u;

function leaves(node: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (typeof node !== 'object' || node === null || Array.isArray(node)) {
    found.set(prefix, node);
    return found;
  }
  for (const [key, child] of Object.entries(node)) {
    for (const [path, value] of leaves(child, prefix ? `${prefix}.${key}` : key)) found.set(path, value);
  }
  return found;
}

/**
 * Everything that keeps a set of catalogs (one per language) from saying the same things: a key
 * missing or extra against the reference language, a leaf that is not a non-empty string, a
 * placeholder set that differs, a character vue-i18n would read as syntax, a message that is not
 * well-formed ICU, and a lazy plural such as "view(s)" or "Datei(en)", which a plural choice says
 * properly. Empty when they agree.
 */
export function catalogProblems(catalogs: Readonly<Record<string, unknown>>, reference: string): string[] {
  const problems: string[] = [];
  const expected = leaves(catalogs[reference]);
  for (const [language, catalog] of Object.entries(catalogs)) {
    const actual = leaves(catalog);
    for (const key of expected.keys()) if (!actual.has(key)) problems.push(`${language}: missing ${key}`);
    for (const [key, value] of actual) {
      if (!expected.has(key)) problems.push(`${language}: extra ${key}`);
      if (typeof value !== 'string' || value.trim() === '') {
        problems.push(`${language}: ${key} is empty or not text`);
        continue;
      }
      if (/[@|$]/.test(value)) problems.push(`${language}: ${key} contains @, | or $`);
      const lazy = LAZY_PLURAL.exec(value);
      if (lazy) problems.push(`${language}: ${key} writes a plural as “${lazy[0]}”: use {count, plural, …}`);
      try {
        parseMessage(value);
      } catch (error) {
        if (!(error instanceof MessageSyntaxError)) throw error;
        problems.push(`${language}: ${key} is not a well-formed message: ${error.message}`);
        continue;
      }
      const wanted = expected.get(key);
      if (typeof wanted === 'string' && placeholdersOf(value).join() !== placeholdersOf(wanted).join()) {
        problems.push(
          `${language}: ${key} has placeholders {${placeholdersOf(value).join('}, {')}}, ${reference} has {${placeholdersOf(wanted).join('}, {')}}`,
        );
      }
    }
  }
  return problems;
}
