import { inject, provide, type ComputedRef, type InjectionKey } from 'vue';
import type { FieldError, ShareFormErrors, ShareFormState } from './shareForm';

/** What the share form hands to its sections: the edited state and each field's problem. */
export interface ShareFormContext {
  state: ShareFormState;
  errors: ComputedRef<ShareFormErrors>;
  /** A text field's problem, once the field was left or the form submitted. */
  shown: (field: keyof ShareFormErrors) => FieldError;
  touch: (field: keyof ShareFormErrors) => void;
  message: (error: FieldError) => string;
}

const KEY: InjectionKey<ShareFormContext> = Symbol('share-form');

export function provideShareForm(context: ShareFormContext): void {
  provide(KEY, context);
}

export function useShareForm(): ShareFormContext {
  const context = inject(KEY);
  if (!context) throw new Error('A share form section is used outside ShareForm.');
  return context;
}
