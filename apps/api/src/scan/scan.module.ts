import { Module } from '@nestjs/common';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { QueueModule } from '../queue/queue.module.js';
import { BuiltinScanner } from './builtin-scanner.js';
import { ClamdScanner } from './clamd-scanner.js';
import { ScanQueue } from './scan-queue.js';
import { ScanRepository } from './scan.repository.js';
import { ScanSettlements } from './scan-settlements.js';
import { ScanWorker } from './scan.worker.js';
import { SCANNER, type Scanner } from './scanner.js';

/** Antivirus scanning of new versions: the queue files add to, and the worker that scans (clamd or the builtin scanner). */
@Module({
  imports: [QueueModule],
  providers: [
    {
      provide: SCANNER,
      inject: [RUNTIME],
      useFactory: (runtime: Runtime): Scanner =>
        runtime.env.CLAMD_HOST ? new ClamdScanner(runtime.env.CLAMD_HOST, runtime.env.CLAMD_PORT) : new BuiltinScanner(),
    },
    ScanQueue,
    ScanRepository,
    ScanSettlements,
    ScanWorker,
  ],
  exports: [ScanQueue, ScanSettlements],
})
export class ScanModule {}
