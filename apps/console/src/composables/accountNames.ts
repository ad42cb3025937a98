import { reactive } from 'vue';
import { api, call } from '../api/client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Administrators read accounts by their addresses: each id seen is looked up once. A shared
 * workspace's trail is kept under the workspace's id: such an id is named by the workspace.
 */
export function useAccountNames() {
  const emails = reactive(new Map<string, string>());
  const workspaces = reactive(new Map<string, string>());
  const asked = new Set<string>();

  async function resolve(ids: ReadonlyArray<string | null | undefined>): Promise<void> {
    const fresh = [...new Set(ids.filter((id): id is string => !!id && !asked.has(id)))];
    fresh.forEach((id) => asked.add(id));
    await Promise.all(
      fresh.map(async (id) => {
        try {
          const user = await call(api().GET('/api/admin/users/{id}', { params: { path: { id } } }));
          // A shared workspace's row answers too, without an address: it is named as a workspace below.
          if (user.email) return void emails.set(id, user.email);
        } catch {
          // Not an account (any more): perhaps a shared workspace.
        }
        try {
          const workspace = await call(api().GET('/api/admin/workspaces/{id}', { params: { path: { id } } }));
          workspaces.set(id, workspace.name);
        } catch {
          // A deleted account keeps its id in the trail; the id is all there is to show.
        }
      }),
    );
  }

  /** The account's address, or its id when it is gone. */
  const nameOf = (id: string | null | undefined): string => (id ? (emails.get(id) ?? id) : '—');
  /** The shared workspace's name when the id is one's, else null. */
  const workspaceOf = (id: string | null | undefined): string | null => (id ? (workspaces.get(id) ?? null) : null);

  /**
   * The account an administrator typed: an id as it is, else the one account whose address is or
   * contains the text. Null when none or several match.
   */
  async function findAccount(text: string): Promise<{ id: string } | { problem: 'none' | 'several' }> {
    if (UUID.test(text)) return { id: text };
    const { users } = await call(api().GET('/api/admin/users', { params: { query: { q: text, limit: 20 } } }));
    const exact = users.find((user) => user.email.toLowerCase() === text.toLowerCase());
    if (exact) return { id: exact.id };
    if (users.length === 1) return { id: users[0]!.id };
    return { problem: users.length ? 'several' : 'none' };
  }

  return { resolve, nameOf, workspaceOf, findAccount };
}
