import { onBeforeUnmount, onMounted } from 'vue';

/** Runs `task` every `intervalMs` while the component lives and the tab is visible. */
export function usePolling(task: () => Promise<unknown> | void, intervalMs: number): void {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running = false;
  const tick = async () => {
    if (running || document.visibilityState !== 'visible') return;
    running = true;
    try {
      await task();
    } finally {
      running = false;
    }
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') void tick();
  };
  onMounted(() => {
    timer = setInterval(() => void tick(), intervalMs);
    document.addEventListener('visibilitychange', onVisible);
  });
  onBeforeUnmount(() => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  });
}
