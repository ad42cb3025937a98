import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
}

/** One confirmation dialog for the whole console: `await confirm.ask({...})` resolves true or false. */
export const useConfirmStore = defineStore('confirm', () => {
  const request = ref<ConfirmRequest | null>(null);
  let resolver: ((value: boolean) => void) | null = null;

  function ask(next: ConfirmRequest): Promise<boolean> {
    resolver?.(false);
    request.value = next;
    return new Promise((resolve) => (resolver = resolve));
  }

  function answer(value: boolean): void {
    resolver?.(value);
    resolver = null;
    request.value = null;
  }

  return { request, ask, answer };
});
