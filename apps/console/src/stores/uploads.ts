import { ACCEPTED_EXTENSIONS, extensionOf, formDataBody, LIMITS, uploadForm } from '@sharedown/contract';
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { api, call, SharedownApiError } from '../api/client';
import type { ConsoleFile } from '../api/types';
import { xhrFetch } from '../api/xhr-fetch';

// Pages offer the accepted extensions in their file pickers.
export { ACCEPTED_EXTENSIONS };
export type ConflictChoice = 'overwrite' | 'rename' | 'skip';
type ConflictMode = 'fail' | 'overwrite' | 'rename';

export interface UploadItem {
  id: number;
  file: File;
  name: string;
  size: number;
  folderId: string | null;
  /** Set for "upload a new version of this file". */
  versionOf: string | null;
  batch: number;
  status: 'queued' | 'uploading' | 'conflict' | 'done' | 'failed' | 'skipped';
  mode: ConflictMode;
  loaded: number;
  error: unknown;
  /** A problem found before sending (i18n key), instead of an API error. */
  localError: string | null;
  outcome: 'created' | 'overwritten' | 'renamed' | 'version' | null;
  result: ConsoleFile | null;
}

/** What the server would refuse anyway, caught before any byte is sent. */
export function localProblem(file: File): string | null {
  if (!ACCEPTED_EXTENSIONS.includes(extensionOf(file.name))) return 'upload.errExtension';
  if (file.size > LIMITS.uploadBytes) return 'upload.errTooLarge';
  return null;
}

const PARALLEL = 2;
/** Finished and skipped uploads leave the panel after a moment; failures stay until dismissed. */
const DONE_LINGER_MS = 6000;

/** Uploads outlive page changes: the queue, its progress and conflict questions live here. */
export const useUploadsStore = defineStore('uploads', () => {
  const items = ref<UploadItem[]>([]);
  /** Bumped whenever an upload lands, so file lists know to reload. */
  const landed = ref(0);
  const batchChoices = new Map<number, ConflictChoice>();
  let nextId = 1;
  let nextBatch = 1;

  const active = computed(() => items.value.filter((item) => item.status === 'queued' || item.status === 'uploading'));
  const conflict = computed(() => items.value.find((item) => item.status === 'conflict') ?? null);
  const finished = computed(() =>
    items.value.filter((item) => item.status === 'done' || item.status === 'failed' || item.status === 'skipped'),
  );

  function item(id: number): UploadItem | undefined {
    return items.value.find((candidate) => candidate.id === id);
  }

  function patch(id: number, change: Partial<UploadItem>): void {
    const current = item(id);
    if (current) Object.assign(current, change);
  }

  function enqueue(files: File[] | FileList, target: { folderId?: string | null; versionOf?: string | null } = {}): number[] {
    const batch = nextBatch++;
    const added: UploadItem[] = Array.from(files).map((file) => {
      const problem = target.versionOf ? (file.size > LIMITS.uploadBytes ? 'upload.errTooLarge' : null) : localProblem(file);
      return {
        id: nextId++,
        file,
        name: file.name,
        size: file.size,
        folderId: target.folderId ?? null,
        versionOf: target.versionOf ?? null,
        batch,
        status: problem ? 'failed' : 'queued',
        mode: 'fail',
        loaded: 0,
        error: null,
        localError: problem,
        outcome: null,
        result: null,
      };
    });
    items.value = [...items.value, ...added];
    pump();
    return added.map((entry) => entry.id);
  }

  function pump(): void {
    const running = items.value.filter((entry) => entry.status === 'uploading').length;
    const waiting = items.value.filter((entry) => entry.status === 'queued').slice(0, Math.max(0, PARALLEL - running));
    for (const entry of waiting) void send(entry.id);
  }

  async function send(id: number): Promise<void> {
    const entry = item(id);
    if (!entry) return;
    patch(id, { status: 'uploading', loaded: 0, error: null });
    const transport = xhrFetch((loaded) => patch(id, { loaded }));
    try {
      if (entry.versionOf) {
        const done = await call(
          api().POST('/api/console/files/{id}/versions', {
            params: { path: { id: entry.versionOf } },
            body: uploadForm({ file: entry.file, name: entry.name }) as never,
            ...formDataBody,
            fetch: transport,
          }),
        );
        patch(id, { status: 'done', loaded: entry.size, outcome: 'version', result: done.file });
      } else {
        const form = uploadForm({ file: entry.file, name: entry.name, folderId: entry.folderId, conflict: entry.mode });
        const done = await call(api().POST('/api/console/files', { body: form as never, ...formDataBody, fetch: transport }));
        patch(id, { status: 'done', loaded: entry.size, outcome: done.outcome, result: done.file });
      }
      landed.value++;
      forgetLater(id);
    } catch (error) {
      if (error instanceof SharedownApiError && error.code === 'DUPLICATE' && !entry.versionOf && entry.mode === 'fail') {
        const remembered = batchChoices.get(entry.batch);
        if (remembered) {
          applyChoice(id, remembered);
          return;
        }
        patch(id, { status: 'conflict', loaded: 0 });
      } else {
        patch(id, { status: 'failed', error });
      }
    } finally {
      pump();
    }
  }

  function forgetLater(id: number): void {
    setTimeout(() => {
      items.value = items.value.filter(
        (candidate) => !(candidate.id === id && (candidate.status === 'done' || candidate.status === 'skipped')),
      );
    }, DONE_LINGER_MS);
  }

  function applyChoice(id: number, choice: ConflictChoice): void {
    if (choice === 'skip') {
      patch(id, { status: 'skipped' });
      forgetLater(id);
    } else {
      patch(id, { status: 'queued', mode: choice });
      pump();
    }
  }

  /** The answer to the conflict dialog; `forAll` answers the same for the rest of that drop. */
  function resolveConflict(id: number, choice: ConflictChoice, forAll = false): void {
    const entry = item(id);
    if (!entry || entry.status !== 'conflict') return;
    if (forAll) {
      batchChoices.set(entry.batch, choice);
      for (const other of items.value) {
        if (other.batch === entry.batch && other.status === 'conflict' && other.id !== id) applyChoice(other.id, choice);
      }
    }
    applyChoice(id, choice);
  }

  function retry(id: number): void {
    const entry = item(id);
    if (entry?.status === 'failed' && !entry.localError) {
      patch(id, { status: 'queued', error: null });
      pump();
    }
  }

  function clearFinished(): void {
    items.value = items.value.filter((entry) => !['done', 'failed', 'skipped'].includes(entry.status));
  }

  return { items, landed, active, conflict, finished, enqueue, resolveConflict, retry, clearFinished };
});
