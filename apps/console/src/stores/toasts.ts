import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface Toast {
  id: number;
  kind: 'success' | 'error' | 'info';
  text: string;
}

/** Short confirmations and failures, announced through an aria-live region. */
export const useToastsStore = defineStore('toasts', () => {
  const toasts = ref<Toast[]>([]);
  let next = 1;

  function dismiss(id: number): void {
    toasts.value = toasts.value.filter((toast) => toast.id !== id);
  }

  function push(kind: Toast['kind'], text: string, timeoutMs = kind === 'error' ? 8000 : 3500): number {
    const id = next++;
    toasts.value = [...toasts.value.slice(-4), { id, kind, text }];
    if (timeoutMs > 0) setTimeout(() => dismiss(id), timeoutMs);
    return id;
  }

  return {
    toasts,
    dismiss,
    success: (text: string) => push('success', text),
    error: (text: string) => push('error', text),
    info: (text: string) => push('info', text),
  };
});
