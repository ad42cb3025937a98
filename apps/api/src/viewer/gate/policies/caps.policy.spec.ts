import { describe, expect, it } from 'vitest';
import type { Admission, VisitRequest } from '../../share-view/share-view.repository.js';
import type { VisitAdmissions } from '../../visit-log/visit-admissions.js';
import { CapsPolicy } from './caps.policy.js';
import { PASS } from './gate-policy.js';
import { aUser, aVisit } from './visit.fixture.js';

function admissionsAnswering(admission: Admission): { admissions: VisitAdmissions; visits: Array<[string, VisitRequest]> } {
  const visits: Array<[string, VisitRequest]> = [];
  const admissions = {
    admit: async (shareId: string, visit: VisitRequest) => {
      visits.push([shareId, visit]);
      return admission;
    },
  } as unknown as VisitAdmissions;
  return { admissions, visits };
}

describe(CapsPolicy.name, () => {
  it('counts the visit with who the gate found visiting, and sets the new visitor cookie', async () => {
    const admitted: Admission = { outcome: 'ADMITTED', visitCount: 3, uniqueVisitCount: 2 };
    const { admissions, visits } = admissionsAnswering(admitted);
    const sut = new CapsPolicy(admissions);
    const visitor = { key: 'v-key', cookie: { name: 'sd_visitor', value: 'signed', maxAge: 1 } };
    const visit = { ...aVisit(), visitor, user: aUser({ id: 'u1' }), browserKey: 'b1' };
    expect(await sut.check(visit)).toBe(PASS);
    expect(visits).toEqual([[visit.share.id, { visitorKey: 'v-key', userId: 'u1', browserKey: 'b1' }]]);
    expect(visit.admission).toBe(admitted);
    expect(visit.cookies).toEqual([visitor.cookie]);
  });

  it.each(['VISITOR_LIMIT', 'USER_LIMIT', 'CONSUMED', 'SESSION_TAKEN', 'REVOKED'] as const)(
    'stops a visit the database refused (%s), counting nothing',
    async (outcome) => {
      const sut = new CapsPolicy(admissionsAnswering({ outcome, visitCount: 0, uniqueVisitCount: 0 }).admissions);
      const visit = aVisit();
      expect(await sut.check(visit)).toEqual({ kind: 'refused', outcome });
      expect(visit.admission).toBeNull();
    },
  );
});
