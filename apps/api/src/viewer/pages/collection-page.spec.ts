import { describe, expect, it } from 'vitest';
import { collectionPage, type CollectionPageOptions } from './viewer-pages.js';
import { ViewerText } from './viewer-text.js';

const AT = new Date('2026-11-20T08:30:00Z');

function page(documents: CollectionPageOptions['documents'], locale: 'en' | 'de' = 'en'): string {
  return collectionPage({
    context: { assets: { css: '/s/_assets/v.css', js: '/s/_assets/v.js' }, text: new ViewerText(locale), returnPath: '/s/o/t' },
    folderName: 'Team <notes>',
    linkPath: '/s/o/t',
    reportUrl: '/s/o/t/report',
    documents,
  });
}

describe(collectionPage.name, () => {
  it('lists the top level first, then each sub-folder under its path, linking each document below the link', () => {
    const html = page([
      { id: 'a1', name: 'intro.md', kind: 'MARKDOWN', sizeBytes: 2048, updatedAt: AT, path: [] },
      { id: 'b2', name: 'leave.html', kind: 'HTML', sizeBytes: 10, updatedAt: AT, path: ['Policies'] },
      { id: 'c3', name: 'old.txt', kind: 'TEXT', sizeBytes: 3 * 1024 * 1024, updatedAt: AT, path: ['Policies', 'Old'] },
    ]);
    expect(html).toContain('<title>Team &lt;notes&gt;</title>');
    expect(html).toContain('<h1>Team &lt;notes&gt;</h1>');
    expect([...html.matchAll(/data-folder="([^"]*)"/g)].map((match) => match[1])).toEqual(['Policies', 'Policies / Old']);
    expect([...html.matchAll(/href="(\/s\/o\/t\/d\/[^"]+)"/g)].map((match) => match[1])).toEqual([
      '/s/o/t/d/a1',
      '/s/o/t/d/b2',
      '/s/o/t/d/c3',
    ]);
    expect(html).toContain('<td>Markdown</td>');
    expect(html).toContain('2 kB');
    expect(html).toContain('3 MB');
    expect(html).toContain(`datetime="${AT.toISOString()}"`);
  });

  it('escapes names and says so in the visitor language when nothing is listed', () => {
    const html = page([
      { id: 'x', name: '<img src=x onerror=alert(1)>.md', kind: 'MARKDOWN', sizeBytes: 1, updatedAt: AT, path: ['"><b>'] },
    ]);
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('"><b>');
    expect(page([], 'de')).toContain('Dieser Ordner enthält noch keine Dokumente');
  });
});
