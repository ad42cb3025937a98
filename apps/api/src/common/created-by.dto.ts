import { ApiProperty } from '@nestjs/swagger';

/** Who made a file or a link: a member of its shared workspace. */
export class CreatedByDto {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() email: string;
}
