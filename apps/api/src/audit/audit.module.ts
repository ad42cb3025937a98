import { Module } from '@nestjs/common';
import { AuditLog } from './audit-log.js';
import { AuditRepository } from './audit.repository.js';

/** The audit trail's store: features record into AuditLog; ActivityModule reads it for the console. */
@Module({ providers: [AuditLog, AuditRepository], exports: [AuditLog, AuditRepository] })
export class AuditModule {}
