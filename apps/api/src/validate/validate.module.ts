import { Module } from '@nestjs/common';
import { ValidateController } from './validate.controller.js';

@Module({ controllers: [ValidateController] })
export class ValidateModule {}
