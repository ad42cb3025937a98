import { beforeEach, describe, expect, it } from 'vitest';
import SectionReading from '../pages/shares/analytics/SectionReading.vue';
import { locales } from '../i18n/locales';
import { harness, mountWith, type Harness } from './helpers';

const single = [
  { fileId: 'f1', fileName: 'guide.md', index: 0, heading: 'Intro', readers: 4, medianSeconds: 3.5 },
  { fileId: 'f1', fileName: 'guide.md', index: 1, heading: 'Setup', readers: 3, medianSeconds: 12.25 },
  { fileId: 'f1', fileName: 'guide.md', index: 2, heading: '', readers: 2, medianSeconds: 1 },
  { fileId: 'f1', fileName: 'guide.md', index: 3, heading: 'Appendix', readers: 0, medianSeconds: null },
];

describe('SectionReading', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('shows per section a bar of its readers, where readers stop, and the median seconds, where they linger', () => {
    const wrapper = mountWith(SectionReading, setup, { props: { sections: single } });
    const rows = wrapper.findAll('[data-test="section-row"]');
    expect(rows.map((row) => row.find('th').text())).toEqual(['Intro', 'Setup', 'Section 3 (no heading text)', 'Appendix']);
    expect(rows.map((row) => row.find('[data-test="section-readers"]').text())).toEqual(['4', '3', '2', '0']);
    expect(rows.map((row) => row.find('[data-test="section-median"]').text().replace(/\s+/g, ' '))).toEqual([
      '3.5 s',
      '12.3 s longest',
      '1.0 s',
      '—',
    ]);
    expect(rows.map((row) => (row.find('.bar').element as HTMLElement).style.width)).toEqual(['100%', '75%', '50%', '0%']);
    // Even one document says which document it covers.
    expect(wrapper.find('[data-test="section-document-name"]').text()).toBe('In “guide.md”');
  });

  it('marks no section longest when several tie for it', () => {
    const tied = single.map((section) => ({ ...section, medianSeconds: 5 }));
    const wrapper = mountWith(SectionReading, setup, { props: { sections: tied } });
    expect(wrapper.findAll('[data-test="section-lingered"]')).toHaveLength(0);
  });

  it('groups a collection by document, each titled, with bars scaled per document', () => {
    const wrapper = mountWith(SectionReading, setup, {
      props: {
        sections: [
          { fileId: 'a', fileName: 'a.md', index: 0, heading: 'A one', readers: 1, medianSeconds: 2 },
          { fileId: 'b', fileName: 'b.html', index: 0, heading: 'B one', readers: 6, medianSeconds: 4 },
          { fileId: 'b', fileName: 'b.html', index: 1, heading: 'B two', readers: 3, medianSeconds: 9 },
        ],
      },
    });
    const documents = wrapper.findAll('[data-test="section-document"]');
    expect(documents.map((document) => document.find('h3').text())).toEqual(['In “a.md”', 'In “b.html”']);
    expect(documents[0]!.find('.bar').attributes('style')).toContain('width: 100%');
    expect(documents[1]!.findAll('.bar').map((bar) => (bar.element as HTMLElement).style.width)).toEqual(['100%', '50%']);
  });

  it('says there is nothing yet without sections', () => {
    const wrapper = mountWith(SectionReading, setup, { props: { sections: [] } });
    expect(wrapper.find('[data-test="sections-empty"]').text()).toContain('No sections read yet');
    expect(wrapper.findAll('[data-test="section-row"]')).toHaveLength(0);
  });

  it.each(locales)('speaks %s', (locale) => {
    const wrapper = mountWith(SectionReading, harness(locale), { props: { sections: single } });
    const messages = harness(locale).i18n.global.getLocaleMessage(locale) as { shareSections?: Record<string, string> };
    expect(Object.keys(messages.shareSections ?? {})).toHaveLength(10);
    expect(wrapper.find('#sections-title').text()).toBe(messages.shareSections!.title);
    expect(wrapper.text()).not.toContain('shareSections.');
  });
});
