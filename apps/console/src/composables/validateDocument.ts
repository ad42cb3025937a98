import { kindOfName, LIMITS } from '@sharedown/contract';
import { computed, ref } from 'vue';
import { api, call } from '../api/client';
import type { FileKind, ValidateResult } from '../api/types';

type Level = 'error' | 'warning' | 'info';

/** A document typed, pasted or read from a file, checked by the service; nothing is stored. */
export function useValidateDocument() {
  const kind = ref<FileKind>('MARKDOWN');
  const content = ref('');
  const result = ref<ValidateResult | null>(null);
  const error = ref<unknown>(null);
  const busy = ref(false);
  /** The line an issue points at, highlighted in the normalized text. */
  const activeLine = ref<number | null>(null);
  const loadedName = ref<string | null>(null);

  /** Counted in code points, as the API counts its limit. */
  const length = computed(() => {
    let count = 0;
    for (const _ of content.value) count++;
    return count;
  });
  const tooLong = computed(() => length.value > LIMITS.validateChars);
  const counts = computed(() => {
    const issues = result.value?.issues ?? [];
    return {
      error: issues.filter((issue) => issue.level === 'error').length,
      warning: issues.filter((issue) => issue.level === 'warning').length,
      info: issues.filter((issue) => issue.level === 'info').length,
    };
  });
  /** The worst level found on each line. */
  const marks = computed(() => {
    const map = new Map<number, Level>();
    const rank = { info: 0, warning: 1, error: 2 } as const;
    for (const issue of result.value?.issues ?? []) {
      if (!issue.line) continue;
      const existing = map.get(issue.line);
      if (!existing || rank[issue.level] > rank[existing]) map.set(issue.line, issue.level);
    }
    return map;
  });
  const changed = computed(() => result.value !== null && result.value.normalized !== content.value);

  async function check(): Promise<void> {
    error.value = null;
    if (tooLong.value || !content.value) return;
    busy.value = true;
    activeLine.value = null;
    try {
      result.value = await call(api().POST('/api/console/validate', { body: { content: content.value, kind: kind.value } }));
    } catch (caught) {
      error.value = caught;
      result.value = null;
    } finally {
      busy.value = false;
    }
  }

  async function readFile(file: File): Promise<void> {
    const detected = kindOfName(file.name);
    if (detected) kind.value = detected;
    loadedName.value = file.name;
    content.value = await file.text();
    await check();
  }

  function takeNormalized(): void {
    if (result.value) content.value = result.value.normalized;
  }

  return {
    kind,
    content,
    result,
    error,
    busy,
    activeLine,
    loadedName,
    length,
    tooLong,
    counts,
    marks,
    changed,
    check,
    readFile,
    takeNormalized,
  };
}
