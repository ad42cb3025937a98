import { computed, ref, watch, type Ref } from 'vue';
import { api, call } from '../api/client';
import type { Share } from '../api/types';
import type { ShareStatus } from './shares';

export const SHARE_PAGE_SIZE = 20;

export interface ShareTotals {
  active: number;
  visits: number;
  uniqueVisits: number;
}

/**
 * One page of the account's shares at a time, read from the server with its cursor: the
 * filters (status, text) apply on the server, so the console never holds more than a page.
 * `cursors[n]` is where page n+1 starts; going back reuses it, going forward takes the page's
 * `nextCursor`. A reload (the polling) reads the page on screen again from the same cursor.
 * `folderId`, when set, keeps only that folder's collections.
 */
export function useSharePages(folderId: Ref<string | null> = ref(null)) {
  const shares = ref<Share[]>([]);
  const total = ref(0);
  const totals = ref<ShareTotals>({ active: 0, visits: 0, uniqueVisits: 0 });
  const status = ref<ShareStatus | 'all'>('all');
  const query = ref('');
  const page = ref(1);
  const loading = ref(true);
  const error = ref<unknown>(null);
  const cursors = ref<Array<string | null>>([null]);
  const nextCursor = ref<string | null>(null);
  /** Whether a filter narrows the list: no rows then means no matches, not an account without shares. */
  const filtered = computed(() => status.value !== 'all' || query.value.trim() !== '' || folderId.value !== null);
  const pageCount = computed(() => Math.max(page.value + (nextCursor.value ? 1 : 0), Math.ceil(total.value / SHARE_PAGE_SIZE)));
  let generation = 0;

  async function load(initial = false): Promise<void> {
    if (initial) loading.value = true;
    const asked = ++generation;
    const q = query.value.trim();
    const cursor = cursors.value[page.value - 1] ?? null;
    try {
      const [found, sums] = await Promise.all([
        call(
          api().GET('/api/console/shares', {
            params: {
              query: {
                limit: SHARE_PAGE_SIZE,
                ...(cursor ? { cursor } : {}),
                ...(status.value === 'all' ? {} : { status: status.value }),
                ...(q ? { q } : {}),
                ...(folderId.value ? { folderId: folderId.value } : {}),
              },
            },
          }),
        ),
        call(api().GET('/api/console/shares/totals')),
      ]);
      // An answer to a request made before the filters or the page changed is stale.
      if (asked !== generation) return;
      shares.value = found.shares;
      total.value = found.total ?? found.shares.length;
      nextCursor.value = found.nextCursor ?? null;
      totals.value = sums;
      error.value = null;
      // Rows removed since the page was first read can leave it empty: step back to a page with rows.
      if (found.shares.length === 0 && page.value > 1) {
        page.value -= 1;
        await load();
      }
    } catch (caught) {
      if (asked === generation && (initial || shares.value.length === 0)) error.value = caught;
    } finally {
      if (asked === generation) loading.value = false;
    }
  }

  function goTo(target: number): void {
    if (target === page.value + 1) {
      if (!nextCursor.value) return;
      cursors.value = [...cursors.value.slice(0, page.value), nextCursor.value];
    } else if (target < 1 || target > page.value) {
      return;
    }
    page.value = target;
    void load();
  }

  function restart(): void {
    cursors.value = [null];
    page.value = 1;
    void load();
  }

  /** Puts a changed share (a revocation) in place without reading the page again. */
  function replace(updated: Share): void {
    shares.value = shares.value.map((item) => (item.id === updated.id ? updated : item));
  }

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  watch(query, () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(restart, 250);
  });
  watch(status, restart);
  watch(folderId, restart);

  return { shares, total, totals, status, query, page, pageCount, nextCursor, loading, error, filtered, load, goTo, replace };
}
