import { Global, Module } from '@nestjs/common';
import { ConsoleFilesController } from './console-files.controller.js';
import { ConsoleFilesService } from './console-files.service.js';
import { FilesController } from './files.controller.js';
import { FilesRepository } from './files.repository.js';
import { FilesService } from './files.service.js';
import { FoldersController } from './folders.controller.js';
import { FoldersService } from './folders.service.js';
import { TrashController } from './trash.controller.js';
import { TrashService } from './trash.service.js';

/**
 * Files and versions: the REST routes, and the console's folders, versions, overwrite and rename
 * on upload, and trash. Global: shares and the viewer read files through FilesService.
 */
@Global()
@Module({
  controllers: [FilesController, ConsoleFilesController, FoldersController, TrashController],
  providers: [FilesService, FilesRepository, ConsoleFilesService, FoldersService, TrashService],
  exports: [FilesService, FilesRepository],
})
export class FilesModule {}
