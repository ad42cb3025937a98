import { Module } from '@nestjs/common';
import { ConsoleFilesController } from './console-files.controller.js';
import { ConsoleFilesService } from './console-files.service.js';
import { FoldersController } from './folders.controller.js';
import { FoldersService } from './folders.service.js';
import { TrashController } from './trash.controller.js';
import { TrashService } from './trash.service.js';

/** Console-only file operations: folders, versions, overwrite and rename on upload, trash. */
@Module({
  controllers: [ConsoleFilesController, FoldersController, TrashController],
  providers: [ConsoleFilesService, FoldersService, TrashService],
})
export class ConsoleFilesModule {}
