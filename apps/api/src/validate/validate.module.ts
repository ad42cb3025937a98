import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ConsoleValidateController } from './console-validate.controller.js';
import { ValidateController } from './validate.controller.js';

/** Checks and normalizes a document without storing anything (REST and console). */
@Module({ imports: [AuthModule], controllers: [ValidateController, ConsoleValidateController] })
export class ValidateModule {}
