import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/** Random bytes for 256 ids, drawn from the system at once. */
const pool = Buffer.allocUnsafe(16 * 256);
let next = pool.length;

/**
 * A visit's id: a UUIDv7 of the visit's time, so the visit log's primary key grows at its right
 * edge (migration 1763700002000). Its random part comes from a pool refilled 4 KB at a time, as
 * Node's own randomUUID does: uuid's default source asks the system for 16 bytes per id, which
 * cost a view more CPU than the rest of its id (a crypto job per call).
 */
export function newVisitId(at: Date): string {
  if (next + 16 > pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const random = pool.subarray(next, (next += 16));
  return uuidv7({ random, msecs: at.getTime() });
}
