import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ScanModule } from '../scan/scan.module.js';
import { SharesModule } from '../shares/shares.module.js';
import { ConsoleFilesController } from './console-files.controller.js';
import { ConsoleFilesService } from './console-files.service.js';
import { FileTextService } from './file-text.service.js';
import { FilesController } from './files.controller.js';
import { TokenFilesController } from './token-files.controller.js';
import { FilesRepository } from './files.repository.js';
import { FoldersRepository } from './folders/folders.repository.js';
import { FilesService } from './files.service.js';
import { FoldersController } from './folders/folders.controller.js';
import { FoldersService } from './folders/folders.service.js';
import { TrashController } from './trash/trash.controller.js';
import { TrashService } from './trash/trash.service.js';
import { UploadsService } from './uploads.service.js';
import { AuditModule } from '../audit/audit.module.js';

/**
 * Files and versions: the REST routes (files, folders, trash, the served text), and the console's folders, versions, overwrite and rename
 * on upload, and trash. New versions go to the scan queue; an upload may create its share in the
 * same transaction (SharesService).
 */
@Module({
  imports: [AuthModule, AuditModule, ScanModule, SharesModule],
  // FilesController, FoldersController and TrashController serve both doors; the other two, each door's own shapes.
  controllers: [FilesController, TokenFilesController, ConsoleFilesController, FoldersController, TrashController],
  providers: [
    FilesService,
    FilesRepository,
    FoldersRepository,
    ConsoleFilesService,
    FileTextService,
    FoldersService,
    TrashService,
    UploadsService,
  ],
  // Document requests write their uploads as files, into folders, and trash rejected ones.
  exports: [FilesService, FilesRepository, FoldersRepository],
})
export class FilesModule {}
