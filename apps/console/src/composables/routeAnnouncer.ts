import { nextTick, onBeforeUnmount, ref } from 'vue';
import { useI18n } from 'vue-i18n';
import { START_LOCATION, useRouter } from 'vue-router';

/** Pages render their heading once their data is in; past this, focus stays where it is. */
const HEADING_WAIT_MS = 5000;

/**
 * After each navigation inside the console, says the new page's title through a polite live region
 * and moves focus to the page's heading, so a screen reader or the next Tab starts on the new page
 * rather than on a link that is gone. The first page load is left to the browser, which already
 * starts at the top (the skip link).
 */
export function useRouteAnnouncer(headingSelector = '#main h1') {
  const { t } = useI18n();
  const router = useRouter();
  const message = ref('');
  let stopWaiting: (() => void) | null = null;

  const removeHook = router.afterEach(async (to, from, failure) => {
    if (failure || from === START_LOCATION || to.fullPath === from.fullPath) return;
    stopWaiting?.();
    // The element that started the navigation; focus that moved anywhere else since is the user's.
    const origin = document.activeElement;
    // Cleared first, so the same title twice in a row (one file, then another) is read again.
    message.value = '';
    await nextTick();
    message.value = to.meta.title ? t(to.meta.title) : 'Sharedown';
    stopWaiting = whenPresent(headingSelector, (heading) => {
      const active = document.activeElement;
      if (active && active !== document.body && active !== origin) return;
      heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    });
  });

  onBeforeUnmount(() => {
    removeHook();
    stopWaiting?.();
  });

  return { message };
}

/** Calls `found` with the first element matching `selector` once it exists; returns a cancel. */
function whenPresent(selector: string, found: (element: HTMLElement) => void): () => void {
  let observer: MutationObserver | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    observer?.disconnect();
    observer = null;
    clearTimeout(timer);
  };
  const check = (): boolean => {
    const element = document.querySelector<HTMLElement>(selector);
    if (!element) return false;
    stop();
    found(element);
    return true;
  };
  void nextTick(() => {
    if (stopped || check()) return;
    observer = new MutationObserver(() => void check());
    observer.observe(document.body, { childList: true, subtree: true });
    timer = setTimeout(stop, HEADING_WAIT_MS);
  });
  return stop;
}
