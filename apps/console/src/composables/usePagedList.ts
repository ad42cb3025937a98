import { computed, ref, watch, type Ref } from 'vue';

export interface PagedListOptions<T> {
  pageSize?: number;
  /** Text a search matches against; case- and accent-insensitive substring match. */
  text: (item: T) => string;
}

function fold(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** Search and pagination over a loaded list; the page resets when the query changes. */
export function usePagedList<T>(items: Ref<readonly T[]>, options: PagedListOptions<T>) {
  const query = ref('');
  const page = ref(1);
  const pageSize = ref(options.pageSize ?? 20);

  const filtered = computed(() => {
    const needle = fold(query.value.trim());
    if (!needle) return items.value;
    return items.value.filter((item) => fold(options.text(item)).includes(needle));
  });
  const pageCount = computed(() => Math.max(1, Math.ceil(filtered.value.length / pageSize.value)));
  const pageItems = computed(() => {
    const start = (page.value - 1) * pageSize.value;
    return filtered.value.slice(start, start + pageSize.value);
  });

  watch(query, () => (page.value = 1));
  watch(pageCount, (count) => {
    if (page.value > count) page.value = count;
  });

  return { query, page, pageSize, filtered, pageCount, pageItems };
}
