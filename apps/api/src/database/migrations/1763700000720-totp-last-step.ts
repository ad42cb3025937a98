import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The last TOTP time step accepted for each account: a code of that step or an earlier one is
 * refused, so a code seen once (over a shoulder, in a proxy log) cannot be used again.
 */
export class TotpLastStep1763700000720 implements MigrationInterface {
  name = 'TotpLastStep1763700000720';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users ADD COLUMN totp_last_step bigint`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP COLUMN totp_last_step`);
  }
}
