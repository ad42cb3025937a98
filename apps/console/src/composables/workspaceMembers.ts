import type { Schemas } from '@sharedown/contract';
import { api, call } from '../api/client';

export type WorkspaceMember = Schemas['MemberDto'];

/** At most this many pages are read: a team is a few pages at most, and a loop must end. */
const MAX_PAGES = 50;

/** Every member of the tab's shared workspace, reading the list a page at a time until the last. */
export async function fetchAllMembers(): Promise<WorkspaceMember[]> {
  const found: WorkspaceMember[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer: Schemas['MemberListDto'] = await call(
      api().GET('/api/console/workspace/members', { params: { query: cursor ? { cursor } : {} } }),
    );
    found.push(...answer.members);
    cursor = answer.nextCursor ?? null;
    if (!cursor) break;
  }
  return found;
}
