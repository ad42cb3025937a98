import { describe, expect, it } from 'vitest';
import { activityDetails, formatDuration, notificationDetail, type NotificationView } from './format-activity.js';

function notification(kind: NotificationView['kind'], data: NotificationView['data']): NotificationView {
  return { id: 'n', kind, shareId: null, fileName: null, createdAt: '2030-01-01T00:00:00.000Z', readAt: null, data };
}

describe(notificationDetail.name, () => {
  it('says who visited', () => {
    expect(
      notificationDetail(
        notification('visit', {
          visitCount: 7,
          browser: 'Chrome',
          os: 'Windows',
          device: 'desktop',
          ipPrefix: '203.0.113.0/24',
          referer: 'example.com',
        }),
      ),
    ).toBe('visit #7 · Chrome on Windows, desktop · 203.0.113.0/24 · from example.com');
    expect(notificationDetail(notification('first_visit', { visitCount: 1, device: 'mobile', referer: null }))).toBe(
      'visit #1 · mobile',
    );
  });

  it('says what came in through a document request', () => {
    expect(
      notificationDetail(
        notification('request_upload', {
          requestId: 'r',
          requestTitle: 'Signed policies',
          uploadId: 'u',
          fileId: 'f',
          sizeBytes: 2048,
          uploaderName: 'Ann',
          scanStatus: 'CLEAN',
        }),
      ),
    ).toBe('upload to “Signed policies” · by Ann · 2.0 KB · clean');
  });

  it('sums up a daily digest', () => {
    expect(
      notificationDetail(
        notification('daily_digest', {
          day: '2030-01-01',
          visits: 4,
          automatedVisits: 1,
          shares: [{ shareId: 's', fileName: 'a.md', visits: 4, automatedVisits: 1 }],
        }),
      ),
    ).toBe('2030-01-01: 4 by people, 1 automated, over 1 link');
  });
});

describe(formatDuration.name, () => {
  it.each([
    [0, '0 s'],
    [42_400, '42 s'],
    [72_000, '1 min 12 s'],
    [3_780_000, '1 h 3 min'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe(activityDetails.name, () => {
  it('lists key=value pairs on one line, cut at 80 characters', () => {
    expect(activityDetails({ name: 'a.md', count: 2, scopes: ['read'] })).toBe('name=a.md count=2 scopes=["read"]');
    const long = activityDetails({ name: 'x'.repeat(200) });
    expect(long).toHaveLength(80);
    expect(long.endsWith('…')).toBe(true);
  });
});
