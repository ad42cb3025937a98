import { beforeEach, describe, expect, it } from 'vitest';
import AcceptancesPanel from '../pages/shares/AcceptancesPanel.vue';
import { harness, mockApi, mountWith, settle, type Harness, type RecordedCall } from './helpers';

const current = 'c'.repeat(64);
const earlier = 'e'.repeat(64);
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function acceptance(n: number, sha = current) {
  return {
    id: `a${n}`,
    at: '2026-03-01T10:00:00Z',
    name: n === 1 ? 'Ada Lovelace' : null,
    email: n === 1 ? 'ada@example.com' : null,
    ipPrefix: '203.0.113.0/24',
    userAgent: chrome,
    ...(n === 1 ? { browser: 'Chrome', os: 'Linux', device: 'desktop' } : {}),
    agreementSha256: sha,
  };
}

/** 25 acceptances, 20 a page; the cursor of the second page is `p2`. */
function server(call: RecordedCall) {
  const query = new URLSearchParams(call.search);
  const all = Array.from({ length: 25 }, (_, i) => acceptance(i + 1, i < 22 ? current : earlier));
  const page = query.get('cursor') === 'p2' ? all.slice(20) : all.slice(0, 20);
  return { status: 200, body: { acceptances: page, nextCursor: query.get('cursor') === 'p2' ? null : 'p2' } };
}

const reads = (calls: RecordedCall[]) =>
  calls.filter((call) => call.path === '/api/console/shares/s1/acceptances').map((call) => call.search);

describe('AcceptancesPanel', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('lists who accepted, page by page, with a CSV download', async () => {
    const { calls } = mockApi({ 'GET /api/console/shares/s1/acceptances': server });
    const wrapper = mountWith(AcceptancesPanel, setup, { props: { shareId: 's1', currentSha256: current } });
    await settle();
    const rows = wrapper.findAll('[data-acceptance-id]');
    expect(rows).toHaveLength(20);
    const cells = rows[0]!.findAll('td').map((cell) => cell.text());
    expect(cells.slice(1, 4)).toEqual(['Ada Lovelace', 'ada@example.com', '203.0.113.0/24']);
    // The device as the visit log names it; without it (an older service), the shortened User-Agent.
    expect(cells[4]).toBe('Desktop · Chrome / Linux');
    expect(rows[1]!.findAll('td')[4]!.text()).toBe('Mozilla/5.0 (X11; Linux x86_64) AppleWe…');
    expect(rows[0]!.findAll('td')[4]!.attributes('title')).toBe(chrome);
    expect(cells[5]).toBe('cccccccccccc');
    expect(rows[1]!.findAll('td').map((cell) => cell.text())[1]).toBe('—');
    expect(wrapper.find('[data-test="acceptances-csv"]').attributes('href')).toBe('/api/console/shares/s1/acceptances.csv');

    await wrapper.find('[data-test="acceptances-more"]').trigger('click');
    await settle();
    expect(wrapper.findAll('[data-acceptance-id]')).toHaveLength(25);
    expect(wrapper.find('[data-test="acceptances-more"]').exists()).toBe(false);
    expect(reads(calls)).toEqual(['?limit=20', '?limit=20&cursor=p2']);
    // The last three accepted a text the share no longer has.
    const last = wrapper.findAll('[data-acceptance-id]')[24]!;
    expect(last.find('[data-test="acceptance-digest"]').text()).toBe('eeeeeeeeeeee');
    expect(last.text()).toContain('earlier text');
    expect(wrapper.findAll('[data-acceptance-id]')[0]!.text()).not.toContain('earlier text');
  });

  it('stays away from a share that never had an agreement', async () => {
    mockApi({ 'GET /api/console/shares/s1/acceptances': { status: 200, body: { acceptances: [], nextCursor: null } } });
    const wrapper = mountWith(AcceptancesPanel, setup, { props: { shareId: 's1', currentSha256: null } });
    await settle();
    expect(wrapper.find('[data-test="acceptances"]').exists()).toBe(false);
  });

  it('keeps the acceptances of an agreement since removed', async () => {
    mockApi({
      'GET /api/console/shares/s1/acceptances': {
        status: 200,
        body: { acceptances: [acceptance(1, earlier)], nextCursor: null },
      },
    });
    const wrapper = mountWith(AcceptancesPanel, setup, { props: { shareId: 's1', currentSha256: null } });
    await settle();
    expect(wrapper.find('[data-test="acceptances"]').text()).toContain(
      'This link no longer asks for an agreement; the acceptances of its earlier texts remain.',
    );
    expect(wrapper.findAll('[data-acceptance-id]')).toHaveLength(1);
  });

  it('says when nobody accepted yet', async () => {
    mockApi({ 'GET /api/console/shares/s1/acceptances': { status: 200, body: { acceptances: [], nextCursor: null } } });
    const wrapper = mountWith(AcceptancesPanel, setup, { props: { shareId: 's1', currentSha256: current } });
    await settle();
    expect(wrapper.find('[data-test="acceptances-empty"]').text()).toBe('Nobody has accepted the agreement yet.');
  });
});
