import { computed } from 'vue';
import { useWorkspaceStore } from '../stores/workspace';

/**
 * What the tab's workspace role lets the pages offer, so a member never meets a 403 by clicking:
 * a VIEWER reads, every other role changes documents, links and requests; OWNER and ADMIN manage
 * members and webhooks. In the personal workspace everything is allowed. While a tab naming a
 * shared workspace has not read its role yet, nothing that writes is offered (the store's list is
 * asked for here, once, when no page did yet).
 */
export function useWorkspaceRole() {
  const store = useWorkspaceStore();
  if (store.selectedId && !store.loaded) void store.load().catch(() => undefined);

  /** The role is known: the personal workspace, or the shared one's list has been read. */
  const known = computed(() => !store.selectedId || store.loaded);
  const role = computed(() => store.role);
  const viewer = computed(() => known.value && store.shared && store.role === 'VIEWER');
  /** Documents, folders, links, requests and the trash may be changed (every role but VIEWER). */
  const canWrite = computed(() => known.value && store.canWrite);
  /** Members and invitations may be managed (OWNER and ADMIN). */
  const canManageMembers = computed(() => known.value && store.canManage);
  /** Webhooks may be created, changed and deleted (OWNER and ADMIN, or anyone in the personal workspace). */
  const canManageWebhooks = computed(() => known.value && store.canManage);
  /** API tokens may be created (the API refuses a VIEWER). */
  const canCreateTokens = computed(() => canWrite.value);

  return { role, viewer, known, canWrite, canManageMembers, canManageWebhooks, canCreateTokens };
}
