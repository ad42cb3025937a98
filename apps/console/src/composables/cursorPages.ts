import { computed, ref, shallowRef, watch, type Ref } from 'vue';

export const CURSOR_PAGE_SIZE = 20;

export interface CursorPageRequest {
  limit: number;
  cursor?: string;
  q?: string;
}

export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
  total: number;
}

/**
 * A list read from the server one page at a time with its cursor, searched by the server: the
 * console never holds more than the page on screen. `cursors[n]` is where page n+1 starts; going
 * back reuses it, going forward takes the page's `nextCursor`; `load` reads the page on screen
 * again from the same cursor.
 */
export function useCursorPages<T extends { id: string }, Extra extends object = object>(
  fetchPage: (request: CursorPageRequest) => Promise<CursorPage<T> & Extra>,
) {
  type Page = CursorPage<T> & Extra;
  const items = ref<T[]>([]) as Ref<T[]>;
  const last = shallowRef<Page | null>(null);
  const total = ref(0);
  const query = ref('');
  const page = ref(1);
  const loading = ref(true);
  const error = ref<unknown>(null);
  const cursors = ref<Array<string | null>>([null]);
  const nextCursor = ref<string | null>(null);
  const searching = computed(() => query.value.trim() !== '');
  const pageCount = computed(() => Math.max(page.value + (nextCursor.value ? 1 : 0), Math.ceil(total.value / CURSOR_PAGE_SIZE)));
  let generation = 0;

  async function load(initial = false): Promise<void> {
    if (initial) loading.value = true;
    const asked = ++generation;
    const q = query.value.trim();
    const cursor = cursors.value[page.value - 1] ?? null;
    try {
      const found = await fetchPage({ limit: CURSOR_PAGE_SIZE, ...(cursor ? { cursor } : {}), ...(q ? { q } : {}) });
      // An answer to a request made before the search or the page changed is stale.
      if (asked !== generation) return;
      items.value = found.items;
      last.value = found;
      total.value = found.total;
      nextCursor.value = found.nextCursor;
      error.value = null;
      // Rows removed since the page was first read can leave it empty: step back to a page with rows.
      if (found.items.length === 0 && page.value > 1) {
        page.value -= 1;
        await load();
      }
    } catch (caught) {
      if (asked === generation && (initial || items.value.length === 0)) error.value = caught;
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

  /** Back to the first page (after a search, or to show a row just created, which is the newest). */
  function restart(): Promise<void> {
    cursors.value = [null];
    page.value = 1;
    return load();
  }

  /** Puts a changed row in place without reading the page again. */
  function replace(updated: T): void {
    items.value = items.value.map((item) => (item.id === updated.id ? updated : item));
  }

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  watch(query, () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => void restart(), 250);
  });

  return { items, last, total, query, page, pageCount, nextCursor, loading, error, searching, load, goTo, restart, replace };
}
