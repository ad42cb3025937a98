import { AppError } from './app-error.js';

/**
 * The deepest nesting of arrays and objects a JSON input may have. Real requests stay under
 * five levels; thousands of levels make class-transformer and class-validator recurse until
 * the stack runs out.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Index of the quote that closes the string opened at `start`, or -1 when it is never closed. */
function endOfString(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

/**
 * Whether a JSON text nests arrays and objects more than `limit` levels deep (`{}` and `[]`
 * are one level, `[[]]` two). Reads the text once, without recursion and without parsing it,
 * and stops at the first level past the limit. Brackets inside strings do not count; an
 * invalid text gives some answer, and the parser that follows refuses it anyway.
 */
export function jsonDepthExceeds(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = endOfString(text, index);
      if (index === -1) return false;
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** The 400 VALIDATION for a JSON input nested too deeply; `subject` names the input. */
export function jsonTooDeep(subject: string): AppError {
  return AppError.validation(`${subject}嵌套层级过深：最多 ${MAX_JSON_DEPTH} 层`);
}

/** Refuses (400 VALIDATION) a JSON text nested deeper than MAX_JSON_DEPTH. */
export function assertJsonDepth(text: string, subject: string): void {
  if (jsonDepthExceeds(text)) throw jsonTooDeep(subject);
}
