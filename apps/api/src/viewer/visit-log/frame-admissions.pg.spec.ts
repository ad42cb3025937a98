import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../../database/test-database.fixture.js';
import { FrameAdmissions, type FrameTicketRequest } from './frame-admissions.js';
import {
  ShareViewRepository,
  type FrameAdmission,
  type FrameTicketUse,
  type ScanStatus,
} from '../share-view/share-view.repository.js';

/**
 * The single-ticket statement the batched one replaced (one frame fetch, one statement), as the
 * reference the batch must agree with: through `share_gate`, and down the collection's subtree.
 */
const SINGLE_TICKET_SQL = `
  WITH RECURSIVE live AS (
    SELECT g.file_id, g.folder_id, g.watermark_enabled, g.watermark_text, g.agreement_sha256
    FROM share_gate g
    JOIN users sharer ON sharer.id = g.user_id AND sharer.disabled_at IS NULL
    WHERE g.id = $1::uuid AND NOT g.revoked AND NOT g.trashed AND NOT g.expired AND g.scan_status = 'CLEAN'
      AND to_timestamp($4::bigint) > now()
  ), tree AS (
    SELECT fo.id, 1 AS depth FROM live JOIN folders fo ON fo.id = live.folder_id AND fo.deleted_at IS NULL
    UNION ALL
    SELECT c.id, t.depth + 1 FROM folders c JOIN tree t ON c.parent_id = t.id
    WHERE c.deleted_at IS NULL AND t.depth < 256
  ), gate AS (
    SELECT live.watermark_enabled, live.watermark_text, live.agreement_sha256
    FROM live
    JOIN file_versions v ON v.id = $2::uuid AND v.scan_status = 'CLEAN'
    WHERE v.file_id = live.file_id
       OR EXISTS (SELECT 1 FROM files vf LEFT JOIN file_versions cv ON cv.id = vf.current_version_id
                  WHERE vf.id = v.file_id AND vf.deleted_at IS NULL AND cv.scan_status IS DISTINCT FROM 'INFECTED'
                    AND vf.folder_id IN (SELECT id FROM tree))
  ), used AS (
    INSERT INTO frame_tickets (id, expires_at)
    SELECT $3::text, to_timestamp($4::bigint) FROM gate
    ON CONFLICT (id) DO NOTHING
    RETURNING id
  )
  SELECT gate.watermark_enabled AS "watermarkEnabled", gate.watermark_text AS "watermarkText",
         (SELECT email FROM users WHERE id = $5::uuid AND email_verified_at IS NOT NULL) AS email,
         (SELECT a.name FROM share_acceptances a
           WHERE a.share_id = $1::uuid AND a.visitor_id = $6 AND a.agreement_sha256 = gate.agreement_sha256) AS "acceptedName"
  FROM gate CROSS JOIN used`;

const now = () => Math.floor(Date.now() / 1000);

/** A fresh ticket for the frame of a view; `expiresIn` seconds from now (negative: expired). */
function ticket(overrides: Partial<FrameTicketUse> & { expiresIn?: number } = {}): FrameTicketUse {
  const { expiresIn = 30, ...rest } = overrides;
  return {
    id: randomBytes(12).toString('base64url'),
    expiresAt: now() + expiresIn,
    userId: null,
    visitorId: 'visitor-1',
    ...rest,
  };
}

describe('frame ticket use, batched per share and version', () => {
  let database: TestDatabase;
  let db: DataSource;
  let repository: ShareViewRepository;
  let ownerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.dataSource;
    repository = new ShareViewRepository(db);
    ownerId = (await createTestUser(db)).id;
  });
  afterAll(async () => database?.drop());

  async function folder(parentId: string | null = null, owner = ownerId): Promise<string> {
    const rows: Array<{ id: string }> = await db.query(
      'INSERT INTO folders (user_id, parent_id, name) VALUES ($1, $2, $3) RETURNING id',
      [owner, parentId, randomBytes(6).toString('hex')],
    );
    return rows[0]!.id;
  }

  /** A new current version of the file. */
  async function version(fileId: string, scan: ScanStatus = 'CLEAN'): Promise<string> {
    const rows: Array<{ id: string }> = await db.query(
      `INSERT INTO file_versions (file_id, version_no, content, size_bytes, sha256, scan_status)
       SELECT $1, coalesce(max(version_no), 0) + 1, '<p>hi</p>', 9, 'x', $2 FROM file_versions WHERE file_id = $1
       RETURNING id`,
      [fileId, scan],
    );
    await db.query('UPDATE files SET current_version_id = $2 WHERE id = $1', [fileId, rows[0]!.id]);
    return rows[0]!.id;
  }

  /** An HTML file with one CLEAN version. */
  async function file(folderId: string | null = null, owner = ownerId): Promise<{ fileId: string; versionId: string }> {
    const rows: Array<{ id: string }> = await db.query(
      `INSERT INTO files (user_id, folder_id, name, kind) VALUES ($1, $2, $3, 'HTML') RETURNING id`,
      [owner, folderId, `${randomBytes(6).toString('hex')}.html`],
    );
    const fileId = rows[0]!.id;
    return { fileId, versionId: await version(fileId) };
  }

  async function share(
    target: { fileId: string } | { folderId: string },
    options: { owner?: string; pinned?: string; agreement?: string } = {},
  ): Promise<string> {
    const rows: Array<{ id: string }> = await db.query(
      `INSERT INTO shares (user_id, file_id, folder_id, token, locked_version_id, agreement_text, watermark_enabled, watermark_text)
       VALUES ($1, $2, $3, $4, $5, $6, true, '{email} {name}') RETURNING id`,
      [
        options.owner ?? ownerId,
        'fileId' in target ? target.fileId : null,
        'folderId' in target ? target.folderId : null,
        randomBytes(12).toString('base64url'),
        options.pinned ?? null,
        options.agreement ?? null,
      ],
    );
    return rows[0]!.id;
  }

  async function recorded(ids: string[]): Promise<number> {
    const rows: Array<{ n: number }> = await db.query('SELECT count(*)::int AS n FROM frame_tickets WHERE id = ANY($1)', [ids]);
    return rows[0]!.n;
  }

  const admitted = (overrides: Partial<FrameAdmission> = {}): FrameAdmission => ({
    watermarkEnabled: true,
    watermarkText: '{email} {name}',
    email: null,
    acceptedName: null,
    ...overrides,
  });

  it('admits exactly one of many parallel uses of the same ticket, through two replicas, and never fails', async () => {
    const { fileId, versionId } = await file();
    const shareId = await share({ fileId });
    const replicas = [new FrameAdmissions(repository), new FrameAdmissions(repository)];
    const use: FrameTicketRequest = { shareId, versionId, ...ticket() };
    // Another fetch keeps each replica's call busy, so the uses of the one ticket go as one batch per replica.
    const others = replicas.map((replica) => replica.use({ shareId, versionId, ...ticket() }));

    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => replicas[i % 2]!.use({ ...use })));

    expect(answers.filter((answer) => answer !== null)).toEqual([admitted()]);
    expect(await Promise.all(others)).toEqual([admitted(), admitted()]);
    expect(await recorded([use.id])).toBe(1);
  });

  it('answers a batch mixing fresh, used, expired and repeated tickets each on its own', async () => {
    const { fileId, versionId } = await file();
    const shareId = await share({ fileId });
    const used = ticket();
    expect(await repository.useFrameTickets(shareId, versionId, [used])).toEqual([admitted()]);
    const [fresh, expired, other] = [ticket(), ticket({ expiresIn: -5 }), ticket()];

    const answers = await repository.useFrameTickets(shareId, versionId, [fresh, used, expired, fresh, other, used]);

    expect(answers).toEqual([admitted(), null, null, null, admitted(), null]);
    expect(await recorded([fresh.id, expired.id, other.id])).toBe(2);
  });

  it('records two replicas’ overlapping batches given in opposite orders once each, without a deadlock', async () => {
    const { fileId, versionId } = await file();
    const shareId = await share({ fileId });
    for (let round = 0; round < 3; round++) {
      // Long enough for the two statements to meet in the middle: inserted in the order given, they deadlock there.
      const tickets = Array.from({ length: 500 }, () => ticket());
      const [forward, backward] = await Promise.all([
        repository.useFrameTickets(shareId, versionId, tickets),
        repository.useFrameTickets(shareId, versionId, [...tickets].reverse()),
      ]);
      const admittedCount = tickets.map(
        (_, i) => Number(forward[i] !== null) + Number(backward[tickets.length - 1 - i] !== null),
      );
      expect(admittedCount).toEqual(tickets.map(() => 1));
    }
  });

  it('answers null for every ticket of a share that no longer shows the version, and records none', async () => {
    const disabledOwner = (await createTestUser(db)).id;
    const cases: Array<[string, (s: { shareId: string; fileId: string; versionId: string }) => Promise<unknown>]> = [
      ['revoked', ({ shareId }) => db.query('UPDATE shares SET revoked_at = now() WHERE id = $1', [shareId])],
      ['trashed', ({ fileId }) => db.query('UPDATE files SET deleted_at = now() WHERE id = $1', [fileId])],
      [
        'expired',
        ({ shareId }) => db.query(`UPDATE shares SET expires_at = now() - interval '1 second' WHERE id = $1`, [shareId]),
      ],
      [
        'quarantined',
        ({ versionId }) => db.query(`UPDATE file_versions SET scan_status = 'INFECTED' WHERE id = $1`, [versionId]),
      ],
      ['current version quarantined', ({ fileId }) => version(fileId, 'INFECTED')],
      ['owner disabled', () => db.query('UPDATE users SET disabled_at = now() WHERE id = $1', [disabledOwner])],
    ];
    for (const [name, change] of cases) {
      const owner = name === 'owner disabled' ? disabledOwner : ownerId;
      const { fileId, versionId } = await file(null, owner);
      const shareId = await share({ fileId }, { owner });
      await change({ shareId, fileId, versionId });
      const tickets = [ticket(), ticket(), ticket({ expiresIn: -5 })];

      expect({ name, answers: await repository.useFrameTickets(shareId, versionId, tickets) }).toEqual({
        name,
        answers: [null, null, null],
      });
      expect(await recorded(tickets.map((t) => t.id))).toBe(0);
    }
  });

  it('names, per ticket, the proven e-mail of its account and the visitor’s name on the current agreement', async () => {
    const proven = await createTestUser(db, { emailVerified: true });
    const unproven = await createTestUser(db);
    const { fileId, versionId } = await file();
    const shareId = await share({ fileId }, { agreement: 'Terms v1' });
    const accept = (visitorId: string, name: string) =>
      db.query(
        `INSERT INTO share_acceptances (share_id, visitor_id, name, ip_prefix, agreement_sha256)
         SELECT id, $2, $3, '198.51.100.0/24', agreement_sha256 FROM shares WHERE id = $1`,
        [shareId, visitorId, name],
      );
    await accept('old-terms', 'Olga');
    await db.query(`UPDATE shares SET agreement_text = 'Terms v2' WHERE id = $1`, [shareId]);
    await accept('ann', 'Ann');
    await accept('bob', 'Bob');

    const answers = await repository.useFrameTickets(shareId, versionId, [
      ticket({ userId: proven.id, visitorId: 'ann' }),
      ticket({ userId: unproven.id, visitorId: 'bob' }),
      ticket({ visitorId: 'old-terms' }),
      ticket({ userId: proven.id, visitorId: 'nobody' }),
    ]);

    expect(answers).toEqual([
      admitted({ email: proven.email, acceptedName: 'Ann' }),
      admitted({ acceptedName: 'Bob' }),
      admitted(),
      admitted({ email: proven.email }),
    ]);
  });

  it('admits a collection’s document only while it is a live, unquarantined file in the folder’s live subtree', async () => {
    const top = await folder();
    const inner = await folder(await folder(top));
    const outside = await folder();
    const shareId = await share({ folderId: top });
    const deep = await file(inner);
    const elsewhere = await file(outside);
    const use = (versionId: string) => repository.useFrameTickets(shareId, versionId, [ticket()]);

    expect(await use(deep.versionId)).toEqual([admitted()]);
    expect(await use(elsewhere.versionId)).toEqual([null]);
    await db.query('UPDATE folders SET deleted_at = now() WHERE id = $1', [inner]);
    expect(await use(deep.versionId)).toEqual([null]);
  });

  it('answers what the single-ticket statement it replaced answers, share state by share state', async () => {
    type Case = { shareId: string; versionId: string };
    const cases: Record<string, () => Promise<Case>> = {
      'a current CLEAN version': async () => {
        const { fileId, versionId } = await file();
        return { shareId: await share({ fileId }), versionId };
      },
      'an older CLEAN version': async () => {
        const { fileId, versionId } = await file();
        await version(fileId);
        return { shareId: await share({ fileId }), versionId };
      },
      'an older CLEAN version while a newer one is scanned': async () => {
        const { fileId, versionId } = await file();
        await version(fileId, 'PENDING');
        return { shareId: await share({ fileId }), versionId };
      },
      'an older CLEAN version while the current one is quarantined': async () => {
        const { fileId, versionId } = await file();
        await version(fileId, 'INFECTED');
        return { shareId: await share({ fileId }), versionId };
      },
      'a version of another file': async () => {
        const { fileId } = await file();
        return { shareId: await share({ fileId }), versionId: (await file()).versionId };
      },
      'the pinned CLEAN version while the current one is quarantined': async () => {
        const { fileId, versionId } = await file();
        await version(fileId, 'INFECTED');
        return { shareId: await share({ fileId }, { pinned: versionId }), versionId };
      },
      'an unpinned CLEAN version while the pinned one is quarantined': async () => {
        const { fileId, versionId } = await file();
        const pinned = await version(fileId, 'INFECTED');
        return { shareId: await share({ fileId }, { pinned }), versionId };
      },
      'another CLEAN version than the pinned one': async () => {
        const { fileId, versionId } = await file();
        const pinned = await version(fileId);
        return { shareId: await share({ fileId }, { pinned }), versionId };
      },
      'a share expiring later': async () => {
        const { fileId, versionId } = await file();
        const shareId = await share({ fileId });
        await db.query(`UPDATE shares SET expires_at = now() + interval '1 hour' WHERE id = $1`, [shareId]);
        return { shareId, versionId };
      },
      'a share disabled after a report': async () => {
        const { fileId, versionId } = await file();
        const shareId = await share({ fileId });
        await db.query('UPDATE shares SET revoked_at = now(), disabled_at = now() WHERE id = $1', [shareId]);
        return { shareId, versionId };
      },
      'a file in a trashed folder': async () => {
        const parent = await folder();
        const { fileId, versionId } = await file(parent);
        await db.query('UPDATE folders SET deleted_at = now() WHERE id = $1', [parent]);
        return { shareId: await share({ fileId }), versionId };
      },
      'a collection’s document in the shared folder': async () => {
        const top = await folder();
        return { shareId: await share({ folderId: top }), versionId: (await file(top)).versionId };
      },
      'a collection’s document two folders down': async () => {
        const top = await folder();
        const { versionId } = await file(await folder(await folder(top)));
        return { shareId: await share({ folderId: top }), versionId };
      },
      'a collection’s document in a trashed sub-folder': async () => {
        const top = await folder();
        const sub = await folder(top);
        const { versionId } = await file(await folder(sub));
        await db.query('UPDATE folders SET deleted_at = now() WHERE id = $1', [sub]);
        return { shareId: await share({ folderId: top }), versionId };
      },
      'a collection’s trashed document': async () => {
        const top = await folder();
        const { fileId, versionId } = await file(top);
        await db.query('UPDATE files SET deleted_at = now() WHERE id = $1', [fileId]);
        return { shareId: await share({ folderId: top }), versionId };
      },
      'a collection’s document whose current version is quarantined': async () => {
        const top = await folder();
        const { fileId, versionId } = await file(top);
        await version(fileId, 'INFECTED');
        return { shareId: await share({ folderId: top }), versionId };
      },
      'a collection’s document whose current version is scanned': async () => {
        const top = await folder();
        const { fileId, versionId } = await file(top);
        await version(fileId, 'PENDING');
        return { shareId: await share({ folderId: top }), versionId };
      },
      'a trashed collection': async () => {
        const top = await folder();
        const { versionId } = await file(top);
        const shareId = await share({ folderId: top });
        await db.query('UPDATE folders SET deleted_at = now() WHERE id = $1', [top]);
        return { shareId, versionId };
      },
      'a file above the collection': async () => {
        const parent = await folder();
        const top = await folder(parent);
        return { shareId: await share({ folderId: top }), versionId: (await file(parent)).versionId };
      },
      'a file outside any folder, for a collection': async () => {
        const top = await folder();
        return { shareId: await share({ folderId: top }), versionId: (await file()).versionId };
      },
    };
    const verified = await createTestUser(db, { emailVerified: true });
    const answered: Record<string, boolean> = {};
    for (const [name, make] of Object.entries(cases)) {
      const { shareId, versionId } = await make();
      const single = ticket({ userId: verified.id });
      const replaced: FrameAdmission[] = await db.query(SINGLE_TICKET_SQL, [
        shareId,
        versionId,
        single.id,
        single.expiresAt,
        single.userId,
        single.visitorId,
      ]);
      const batched = await repository.useFrameTickets(shareId, versionId, [ticket({ userId: verified.id })]);
      expect({ name, answer: batched[0] }).toEqual({ name, answer: replaced[0] ?? null });
      answered[name] = batched[0] !== null;
    }
    // Both ways of answering, so that agreeing says something.
    expect(answered).toEqual({
      'a current CLEAN version': true,
      'an older CLEAN version': true,
      'an older CLEAN version while a newer one is scanned': true,
      'an older CLEAN version while the current one is quarantined': false,
      'a version of another file': false,
      'the pinned CLEAN version while the current one is quarantined': true,
      'an unpinned CLEAN version while the pinned one is quarantined': false,
      'another CLEAN version than the pinned one': true,
      'a share expiring later': true,
      'a share disabled after a report': false,
      'a file in a trashed folder': true,
      'a collection’s document in the shared folder': true,
      'a collection’s document two folders down': true,
      'a collection’s document in a trashed sub-folder': false,
      'a collection’s trashed document': false,
      'a collection’s document whose current version is quarantined': false,
      'a collection’s document whose current version is scanned': true,
      'a trashed collection': false,
      'a file above the collection': false,
      'a file outside any folder, for a collection': false,
    });
  });
});
