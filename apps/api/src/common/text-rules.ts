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
