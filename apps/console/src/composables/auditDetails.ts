import type { RouteLocationRaw } from 'vue-router';

type Translate = (key: string) => string;
type Exists = (key: string) => boolean;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The console page each kind of id opens, by the detail's name. */
const PAGES: Record<string, { label: string; to: (id: string) => RouteLocationRaw }> = {
  file: { label: 'activity.open.file', to: (id) => ({ name: 'file-detail', params: { id } }) },
  fileId: { label: 'activity.open.file', to: (id) => ({ name: 'file-detail', params: { id } }) },
  folderId: { label: 'activity.open.folder', to: (id) => ({ name: 'file-list', query: { folder: id } }) },
  shareId: { label: 'activity.open.share', to: (id) => ({ name: 'share-detail', params: { id } }) },
  webhookId: { label: 'activity.open.webhook', to: (id) => ({ name: 'webhook-detail', params: { id } }) },
};

export interface AuditDetails {
  /** The names and counts, as one short line. */
  line: string;
  /** Links to what the ids name, instead of the ids themselves. */
  links: Array<{ label: string; to: RouteLocationRaw }>;
}

/**
 * An event's details in words: ids are not for people to read, so an id the console has a page
 * for becomes a link to it and any other id is left out.
 */
export function auditDetails(details: Readonly<Record<string, unknown>>, t: Translate, te: Exists): AuditDetails {
  const words: string[] = [];
  const links: AuditDetails['links'] = [];
  for (const [name, value] of Object.entries(details)) {
    if (typeof value === 'string' && UUID.test(value)) {
      const page = PAGES[name];
      if (page) links.push({ label: t(page.label), to: page.to(value) });
      continue;
    }
    words.push(`${te(`activity.details.${name}`) ? t(`activity.details.${name}`) : name}: ${String(value)}`);
  }
  return { line: words.join(' · '), links };
}
