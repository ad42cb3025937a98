import { ref, type Ref } from 'vue';

export interface AppendPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A list read newest first, one page at a time, each "show older" appending the next page after
 * its cursor (the Activity page, the Admin area's lists). `load` starts over from the first page,
 * for instance after a filter or search changed; an answer to a request made before a newer one
 * is stale and dropped. A failed first page is `error`; a failed later page goes to `onMoreError`
 * when given (the rows on screen stay), else to `error`.
 */
export function useAppendPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<AppendPage<T>>,
  options: { onMoreError?: (error: unknown) => void } = {},
) {
  const items = ref<T[]>([]) as Ref<T[]>;
  const nextCursor = ref<string | null>(null);
  const loading = ref(true);
  const loadingMore = ref(false);
  const error = ref<unknown>(null);
  let generation = 0;

  async function read(cursor?: string): Promise<void> {
    const asked = ++generation;
    const page = await fetchPage(cursor);
    if (asked !== generation) return;
    items.value = cursor ? [...items.value, ...page.items] : page.items;
    nextCursor.value = page.nextCursor;
  }

  async function load(): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      await read();
    } catch (caught) {
      error.value = caught;
    } finally {
      loading.value = false;
    }
  }

  async function more(): Promise<void> {
    if (!nextCursor.value) return;
    loadingMore.value = true;
    try {
      await read(nextCursor.value);
    } catch (caught) {
      if (options.onMoreError) options.onMoreError(caught);
      else error.value = caught;
    } finally {
      loadingMore.value = false;
    }
  }

  return { items, nextCursor, loading, loadingMore, error, load, more };
}
