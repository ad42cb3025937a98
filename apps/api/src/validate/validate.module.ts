import { Module } from '@nestjs/common';
import { ConsoleValidateController } from './console-validate.controller.js';
import { ValidateController } from './validate.controller.js';

@Module({ controllers: [ValidateController, ConsoleValidateController] })
export class ValidateModule {}
