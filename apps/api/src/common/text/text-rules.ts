import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * C0 controls, DEL and C1 controls. Invisible; they break headers, logs and terminals, and
 * PostgreSQL text cannot hold U+0000 at all.
 */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Refuses a string holding a control character (400 VALIDATION, `<field> 不能包含控制字符`).
 * Values that are not strings pass, so the field's type rule reports them; with `each: true`
 * every element of an array is checked.
 */
export function NoControlCharacters(field: string, options: ValidationOptions = {}): PropertyDecorator {
  return ValidateBy(
    {
      name: 'noControlCharacters',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !CONTROL_CHARACTERS.test(value),
        defaultMessage: () => `${field} 不能包含控制字符`,
      },
    },
    options,
  );
}

/**
 * Characters that show nothing on their own: white space (U+2028 and U+2029 included), controls,
 * format characters (zero-width marks, bidi controls, the tag block U+E0000–U+E007F), the other
 * default-ignorable code points (the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, variation
 * selectors, the combining grapheme joiner) and the blank braille pattern U+2800.
 */
const ONLY_INVISIBLE = /^[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u{E0000}-\u{E007F}]*$/u;

/** True when `text` holds nothing visible: it is empty or made of invisible characters only. */
export function isInvisibleOnly(text: string): boolean {
  return ONLY_INVISIBLE.test(text);
}
